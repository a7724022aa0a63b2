-- Sucursales, depósitos and transferencias (issue 38 part 1, docs/decisions/0059-sucursales-y-depositos.md).
-- Every business has one principal sucursal ("Casa central") and one principal depósito
-- ("Depósito principal"). products.stock_actual stays the business's total; stock_depositos keeps
-- the stock of every other depósito, and the principal's is the total less theirs (a business with
-- one depósito has no row here and works as before). Every stock movement names its depósito.
CREATE TABLE "sucursales" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "nombre" text NOT NULL CONSTRAINT "sucursales_nombre" CHECK (length(btrim("nombre")) BETWEEN 1 AND 80),
  "direccion" text,
  "principal" boolean DEFAULT false NOT NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "sucursales_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "sucursales_business_id_key" UNIQUE ("business_id", "id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "sucursales_nombre_idx" ON "sucursales" ("business_id", lower("nombre"));--> statement-breakpoint
CREATE UNIQUE INDEX "sucursales_principal_idx" ON "sucursales" ("business_id") WHERE "principal";--> statement-breakpoint
ALTER TABLE "sucursales" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "sucursales"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY todos_los_negocios ON "sucursales" TO mostrador_todos_los_negocios
  USING ((SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK ((SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

CREATE TABLE "depositos" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "sucursal_id" uuid NOT NULL,
  "nombre" text NOT NULL CONSTRAINT "depositos_nombre" CHECK (length(btrim("nombre")) BETWEEN 1 AND 80),
  "principal" boolean DEFAULT false NOT NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "depositos_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "depositos_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "depositos_sucursal_fk" FOREIGN KEY ("business_id", "sucursal_id") REFERENCES "sucursales" ("business_id", "id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "depositos_nombre_idx" ON "depositos" ("business_id", lower("nombre"));--> statement-breakpoint
CREATE UNIQUE INDEX "depositos_principal_idx" ON "depositos" ("business_id") WHERE "principal";--> statement-breakpoint
CREATE INDEX "depositos_sucursal_idx" ON "depositos" ("business_id", "sucursal_id", "creado_en");--> statement-breakpoint
ALTER TABLE "depositos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "depositos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY todos_los_negocios ON "depositos" TO mostrador_todos_los_negocios
  USING ((SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK ((SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- The stock of each product in each depósito but the principal (in thousandths as numeric, as products).
CREATE TABLE "stock_depositos" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "deposito_id" uuid NOT NULL,
  "producto_id" uuid NOT NULL,
  "stock" numeric(14, 3) DEFAULT '0' NOT NULL,
  CONSTRAINT "stock_depositos_pkey" PRIMARY KEY ("business_id", "deposito_id", "producto_id"),
  CONSTRAINT "stock_depositos_deposito_fk" FOREIGN KEY ("business_id", "deposito_id") REFERENCES "depositos" ("business_id", "id"),
  CONSTRAINT "stock_depositos_producto_fk" FOREIGN KEY ("business_id", "producto_id") REFERENCES "products" ("business_id", "id") ON DELETE CASCADE
);--> statement-breakpoint
CREATE INDEX "stock_depositos_producto_idx" ON "stock_depositos" ("business_id", "producto_id");--> statement-breakpoint
ALTER TABLE "stock_depositos" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "stock_depositos"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY todos_los_negocios ON "stock_depositos" TO mostrador_todos_los_negocios
  USING ((SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK ((SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- Transferencias between depósitos: the stock leaves the origin when sent (en_transito) and
-- enters the destination as received (recibida); what did not arrive stays recorded per line.
CREATE TABLE "transferencias" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "numero" integer NOT NULL,
  "origen_id" uuid NOT NULL,
  "destino_id" uuid NOT NULL,
  "estado" text NOT NULL CONSTRAINT "transferencias_estado" CHECK ("estado" IN ('en_transito', 'recibida')),
  "observaciones" text,
  "creado_por" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  "recibido_por" uuid REFERENCES "users"("id") ON DELETE SET NULL,
  "recibido_en" timestamp with time zone,
  CONSTRAINT "transferencias_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "transferencias_business_id_key" UNIQUE ("business_id", "id"),
  CONSTRAINT "transferencias_numero_key" UNIQUE ("business_id", "numero"),
  CONSTRAINT "transferencias_origen_fk" FOREIGN KEY ("business_id", "origen_id") REFERENCES "depositos" ("business_id", "id"),
  CONSTRAINT "transferencias_destino_fk" FOREIGN KEY ("business_id", "destino_id") REFERENCES "depositos" ("business_id", "id"),
  CONSTRAINT "transferencias_distintos" CHECK ("origen_id" <> "destino_id"),
  CONSTRAINT "transferencias_recibida" CHECK (("estado" = 'recibida') = ("recibido_en" IS NOT NULL))
);--> statement-breakpoint
CREATE INDEX "transferencias_fecha_idx" ON "transferencias" ("business_id", "creado_en");--> statement-breakpoint
ALTER TABLE "transferencias" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "transferencias"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY todos_los_negocios ON "transferencias" TO mostrador_todos_los_negocios
  USING ((SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK ((SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

CREATE TABLE "transferencia_items" (
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "transferencia_id" uuid NOT NULL,
  "posicion" integer NOT NULL,
  "producto_id" uuid NOT NULL,
  "nombre" text NOT NULL,
  "cantidad" numeric(14, 3) NOT NULL CONSTRAINT "transferencia_items_cantidad" CHECK ("cantidad" > 0),
  "cantidad_recibida" numeric(14, 3) CONSTRAINT "transferencia_items_recibida" CHECK ("cantidad_recibida" >= 0),
  CONSTRAINT "transferencia_items_pkey" PRIMARY KEY ("id", "business_id"),
  CONSTRAINT "transferencia_items_transferencia_fk" FOREIGN KEY ("business_id", "transferencia_id") REFERENCES "transferencias" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "transferencia_items_producto_fk" FOREIGN KEY ("business_id", "producto_id") REFERENCES "products" ("business_id", "id"),
  CONSTRAINT "transferencia_items_posicion_key" UNIQUE ("business_id", "transferencia_id", "posicion")
);--> statement-breakpoint
CREATE INDEX "transferencia_items_producto_idx" ON "transferencia_items" ("business_id", "producto_id");--> statement-breakpoint
ALTER TABLE "transferencia_items" ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON "transferencia_items"
  USING (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid))
  WITH CHECK (business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid));--> statement-breakpoint
CREATE POLICY todos_los_negocios ON "transferencia_items" TO mostrador_todos_los_negocios
  USING ((SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK ((SELECT current_setting('app.todos_los_negocios', true) = 'on'));--> statement-breakpoint

-- Every business's Casa central and Depósito principal; today's stock is the principal's.
INSERT INTO "sucursales" ("business_id", "nombre", "principal") SELECT "id", 'Casa central', true FROM "businesses";--> statement-breakpoint
INSERT INTO "depositos" ("business_id", "sucursal_id", "nombre", "principal")
  SELECT "business_id", "id", 'Depósito principal', true FROM "sucursales" WHERE "principal";--> statement-breakpoint

-- A caja belongs to a sucursal (null: the principal) and sells from its depósito.
ALTER TABLE "cajas" ADD COLUMN "sucursal_id" uuid;--> statement-breakpoint
ALTER TABLE "cajas" ADD CONSTRAINT "cajas_sucursal_fk" FOREIGN KEY ("business_id", "sucursal_id")
  REFERENCES "sucursales" ("business_id", "id");--> statement-breakpoint

-- Every stock movement names its depósito: the ones before are the principal's.
ALTER TABLE "stock_movements" ADD COLUMN "deposito_id" uuid;--> statement-breakpoint
UPDATE "stock_movements" m SET "deposito_id" = d."id" FROM "depositos" d
 WHERE d."business_id" = m."business_id" AND d."principal";--> statement-breakpoint
ALTER TABLE "stock_movements" ALTER COLUMN "deposito_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_deposito_fk" FOREIGN KEY ("business_id", "deposito_id")
  REFERENCES "depositos" ("business_id", "id");--> statement-breakpoint
CREATE INDEX "stock_movements_deposito_idx" ON "stock_movements" ("business_id", "deposito_id", "producto_id");
