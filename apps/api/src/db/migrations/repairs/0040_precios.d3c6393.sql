-- Repair (decision 0034) for a database that applied 0040_precios.sql as it was on main from
-- d3c6393 to 3cdee69 (26 Nov): that version wrote a product's first price with an insert trigger
-- and had no listas_proveedor_aplicadas, which 0047 alters. The runner runs this, before any
-- pending migration, only on such a database, and then records 0040_precios as the current
-- version; its statements are the current 0040's for what changed.
CREATE OR REPLACE FUNCTION "precios_historial_registrar"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NEW.precio_venta IS NOT DISTINCT FROM OLD.precio_venta
     AND NEW.precio_compra IS NOT DISTINCT FROM OLD.precio_compra THEN
    RETURN NULL;
  END IF;
  INSERT INTO precios_historial (business_id, producto_id, precio_anterior, precio_nuevo, costo_anterior,
                                 costo_nuevo, origen, referencia_id, usuario_id)
  VALUES (NEW.business_id, NEW.id, OLD.precio_venta, NEW.precio_venta, OLD.precio_compra, NEW.precio_compra,
          coalesce(nullif(current_setting('mostrador.precio_origen', true), ''), 'manual'),
          nullif(current_setting('mostrador.precio_referencia', true), '')::uuid,
          nullif(current_setting('mostrador.usuario_id', true), '')::uuid);
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER "products_precios_historial" ON "products";
--> statement-breakpoint
CREATE TRIGGER "products_precios_historial" AFTER UPDATE OF "precio_venta", "precio_compra" ON "products"
  FOR EACH ROW EXECUTE FUNCTION "precios_historial_registrar"();
--> statement-breakpoint
-- A supplier's price list applied: who, when, which file, and every change (to show and to undo).
CREATE TABLE "listas_proveedor_aplicadas" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "proveedor_id" uuid,
  "archivo" text NOT NULL,
  "clave" text NOT NULL,
  "margen" numeric(7, 2),
  "cambios" jsonb NOT NULL,
  "productos" integer NOT NULL,
  "usuario_id" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "fecha" timestamp with time zone DEFAULT now() NOT NULL,
  "deshecha_en" timestamp with time zone,
  CONSTRAINT "listas_proveedor_aplicadas_pkey" PRIMARY KEY ("business_id", "id"),
  CONSTRAINT "listas_proveedor_aplicadas_proveedor_fk" FOREIGN KEY ("business_id", "proveedor_id")
    REFERENCES "suppliers" ("business_id", "id"),
  CONSTRAINT "listas_proveedor_aplicadas_clave" CHECK ("clave" IN ('codigo', 'codigo_barras'))
);
--> statement-breakpoint
CREATE INDEX "listas_proveedor_aplicadas_fecha_idx" ON "listas_proveedor_aplicadas" ("business_id", "fecha" DESC);
