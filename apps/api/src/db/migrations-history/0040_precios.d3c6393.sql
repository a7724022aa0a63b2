-- Issue 17 (decision 0017): price history, price lists, customers' default list.
-- Every change of a product's sale price or cost, whatever path wrote it: a trigger on products
-- writes the row, reading who and why from transaction-local settings (lib/precios-origen.ts).
CREATE TABLE "precios_historial" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "producto_id" uuid NOT NULL,
  "precio_anterior" numeric(14, 2),
  "precio_nuevo" numeric(14, 2),
  "costo_anterior" numeric(14, 2),
  "costo_nuevo" numeric(14, 2),
  "origen" text NOT NULL,
  "referencia_id" uuid,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "fecha" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "precios_historial_pkey" PRIMARY KEY ("business_id", "id"),
  CONSTRAINT "precios_historial_producto_fk" FOREIGN KEY ("business_id", "producto_id")
    REFERENCES "products" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "precios_historial_origen" CHECK ("origen" IN
    ('alta', 'manual', 'masivo', 'importacion', 'lista_proveedor', 'compra', 'cotizacion'))
);
--> statement-breakpoint
CREATE INDEX "precios_historial_producto_idx" ON "precios_historial" ("business_id", "producto_id", "fecha" DESC, "id" DESC);
--> statement-breakpoint
CREATE FUNCTION "precios_historial_registrar"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.precio_venta IS NOT DISTINCT FROM OLD.precio_venta
     AND NEW.precio_compra IS NOT DISTINCT FROM OLD.precio_compra THEN
    RETURN NULL;
  END IF;
  INSERT INTO precios_historial (business_id, producto_id, precio_anterior, precio_nuevo, costo_anterior,
                                 costo_nuevo, origen, referencia_id, usuario_id)
  VALUES (NEW.business_id, NEW.id,
          CASE WHEN TG_OP = 'UPDATE' THEN OLD.precio_venta END, NEW.precio_venta,
          CASE WHEN TG_OP = 'UPDATE' THEN OLD.precio_compra END, NEW.precio_compra,
          CASE WHEN TG_OP = 'INSERT' AND coalesce(current_setting('mostrador.precio_origen', true), '') = ''
               THEN 'alta'
               ELSE coalesce(nullif(current_setting('mostrador.precio_origen', true), ''), 'manual') END,
          nullif(current_setting('mostrador.precio_referencia', true), '')::uuid,
          nullif(current_setting('mostrador.usuario_id', true), '')::uuid);
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "products_precios_historial" AFTER INSERT OR UPDATE OF "precio_venta", "precio_compra" ON "products"
  FOR EACH ROW EXECUTE FUNCTION "precios_historial_registrar"();
--> statement-breakpoint
-- Price lists beside the product's own price (the virtual "Minorista", id null): a percentage
-- over or under another list (or Minorista), or fixed prices per product; an optional minimum
-- quantity below which the list's base applies.
CREATE TABLE "listas_precios" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "nombre" text NOT NULL,
  "tipo" text NOT NULL,
  "base_lista_id" uuid,
  "porcentaje" numeric(7, 2),
  "cantidad_minima" numeric(14, 3),
  "activo" boolean DEFAULT true NOT NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "listas_precios_pkey" PRIMARY KEY ("business_id", "id"),
  CONSTRAINT "listas_precios_base_fk" FOREIGN KEY ("business_id", "base_lista_id")
    REFERENCES "listas_precios" ("business_id", "id"),
  CONSTRAINT "listas_precios_tipo" CHECK ("tipo" IN ('porcentaje', 'fija')),
  CONSTRAINT "listas_precios_porcentaje" CHECK (("tipo" = 'porcentaje') = ("porcentaje" IS NOT NULL) AND coalesce("porcentaje", 0) > -100),
  CONSTRAINT "listas_precios_cantidad" CHECK ("cantidad_minima" IS NULL OR "cantidad_minima" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "listas_precios_nombre_key" ON "listas_precios" ("business_id", lower("nombre"));
--> statement-breakpoint
CREATE TABLE "listas_precios_items" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "lista_id" uuid NOT NULL,
  "producto_id" uuid NOT NULL,
  "precio" numeric(14, 2) NOT NULL CONSTRAINT "listas_precios_items_precio" CHECK ("precio" >= 0),
  "cantidad_minima" numeric(14, 3) CONSTRAINT "listas_precios_items_cantidad" CHECK ("cantidad_minima" IS NULL OR "cantidad_minima" > 0),
  CONSTRAINT "listas_precios_items_pkey" PRIMARY KEY ("business_id", "lista_id", "producto_id"),
  CONSTRAINT "listas_precios_items_lista_fk" FOREIGN KEY ("business_id", "lista_id")
    REFERENCES "listas_precios" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "listas_precios_items_producto_fk" FOREIGN KEY ("business_id", "producto_id")
    REFERENCES "products" ("business_id", "id") ON DELETE CASCADE
);
--> statement-breakpoint
CREATE INDEX "listas_precios_items_producto_idx" ON "listas_precios_items" ("business_id", "producto_id");
--> statement-breakpoint
ALTER TABLE "customers" ADD COLUMN "lista_precios_id" uuid;
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_lista_precios_fk" FOREIGN KEY ("business_id", "lista_precios_id")
  REFERENCES "listas_precios" ("business_id", "id") ON DELETE SET NULL ("lista_precios_id");
--> statement-breakpoint
-- Prices in dollars: a product priced in USD keeps precio_usd; its precio_venta is the ARS price
-- from the cotización in force, rounded by the business's rule, refreshed when a cotización applies.
ALTER TABLE "products" ADD COLUMN "moneda" text DEFAULT 'ARS' NOT NULL;
--> statement-breakpoint
ALTER TABLE "products" ADD COLUMN "precio_usd" numeric(14, 2);
--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_moneda" CHECK ("moneda" IN ('ARS', 'USD')
  AND ("moneda" = 'ARS' OR "precio_usd" IS NOT NULL) AND coalesce("precio_usd", 0) >= 0);
--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD COLUMN "redondeo_precios" integer DEFAULT 1 NOT NULL;
--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD CONSTRAINT "tenant_settings_redondeo_precios" CHECK ("redondeo_precios" IN (1, 10, 100));
--> statement-breakpoint
CREATE TABLE "cotizaciones" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "fecha" date NOT NULL,
  "valor" numeric(14, 4) NOT NULL CONSTRAINT "cotizaciones_valor" CHECK ("valor" > 0),
  "productos_actualizados" integer DEFAULT 0 NOT NULL,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "cotizaciones_pkey" PRIMARY KEY ("business_id", "id")
);
--> statement-breakpoint
CREATE INDEX "cotizaciones_fecha_idx" ON "cotizaciones" ("business_id", "fecha" DESC, "creado_en" DESC);
--> statement-breakpoint
CREATE INDEX "products_usd_idx" ON "products" ("business_id") WHERE "moneda" = 'USD';
