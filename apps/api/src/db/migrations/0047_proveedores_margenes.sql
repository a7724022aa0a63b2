-- Issue 17 (decision 0024): each supplier's own code for a product, and stored margin rules.
-- A product may have several codes per supplier; a supplier's code names one product.
CREATE TABLE "productos_proveedor" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "proveedor_id" uuid NOT NULL,
  "codigo" text NOT NULL,
  "producto_id" uuid NOT NULL,
  "creado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "productos_proveedor_pkey" PRIMARY KEY ("business_id", "proveedor_id", "codigo"),
  CONSTRAINT "productos_proveedor_proveedor_fk" FOREIGN KEY ("business_id", "proveedor_id")
    REFERENCES "suppliers" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "productos_proveedor_producto_fk" FOREIGN KEY ("business_id", "producto_id")
    REFERENCES "products" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "productos_proveedor_codigo" CHECK (length("codigo") BETWEEN 1 AND 50)
);
--> statement-breakpoint
CREATE INDEX "productos_proveedor_producto_idx" ON "productos_proveedor" ("business_id", "producto_id");
--> statement-breakpoint
-- A margin over the cost (%) for a product, a category or a supplier: exactly one of them.
CREATE TABLE "reglas_margen" (
  "business_id" uuid NOT NULL REFERENCES "businesses"("id") ON DELETE CASCADE,
  "id" uuid DEFAULT gen_random_uuid() NOT NULL,
  "producto_id" uuid,
  "categoria_id" uuid,
  "proveedor_id" uuid,
  "margen" numeric(7, 2) NOT NULL,
  "actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
  CONSTRAINT "reglas_margen_pkey" PRIMARY KEY ("business_id", "id"),
  CONSTRAINT "reglas_margen_producto_fk" FOREIGN KEY ("business_id", "producto_id")
    REFERENCES "products" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "reglas_margen_categoria_fk" FOREIGN KEY ("business_id", "categoria_id")
    REFERENCES "product_categories" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "reglas_margen_proveedor_fk" FOREIGN KEY ("business_id", "proveedor_id")
    REFERENCES "suppliers" ("business_id", "id") ON DELETE CASCADE,
  CONSTRAINT "reglas_margen_uno" CHECK (num_nonnulls("producto_id", "categoria_id", "proveedor_id") = 1),
  CONSTRAINT "reglas_margen_margen" CHECK ("margen" > -100 AND "margen" <= 1000)
);
--> statement-breakpoint
CREATE UNIQUE INDEX "reglas_margen_producto_key" ON "reglas_margen" ("business_id", "producto_id") WHERE "producto_id" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "reglas_margen_categoria_key" ON "reglas_margen" ("business_id", "categoria_id") WHERE "categoria_id" IS NOT NULL;
--> statement-breakpoint
CREATE UNIQUE INDEX "reglas_margen_proveedor_key" ON "reglas_margen" ("business_id", "proveedor_id") WHERE "proveedor_id" IS NOT NULL;
--> statement-breakpoint
ALTER TABLE "listas_proveedor_aplicadas" DROP CONSTRAINT "listas_proveedor_aplicadas_clave";
--> statement-breakpoint
ALTER TABLE "listas_proveedor_aplicadas" ADD CONSTRAINT "listas_proveedor_aplicadas_clave"
  CHECK ("clave" IN ('codigo', 'codigo_barras', 'codigo_proveedor'));
