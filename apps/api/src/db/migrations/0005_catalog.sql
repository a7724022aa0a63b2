CREATE TABLE "product_categories" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"descripcion" text,
	"activo" boolean DEFAULT true NOT NULL,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "product_categories_business_id_key" UNIQUE("business_id","id")
);
--> statement-breakpoint
CREATE TABLE "products" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"descripcion" text,
	"codigo" text,
	"codigo_barras" text,
	"precio_compra" numeric(14, 2),
	"precio_venta" numeric(14, 2) NOT NULL,
	"stock_actual" numeric(14, 3) DEFAULT '0' NOT NULL,
	"stock_minimo" numeric(14, 3) DEFAULT '0' NOT NULL,
	"unidad" text DEFAULT 'unidad' NOT NULL,
	"categoria_id" uuid,
	"activo" boolean DEFAULT true NOT NULL,
	"busqueda" text GENERATED ALWAYS AS (f_unaccent(lower(nombre || ' ' || coalesce(codigo, '') || ' ' || coalesce(codigo_barras, '')))) STORED,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "products_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "products_stock_no_negativo" CHECK ("products"."stock_actual" >= 0),
	CONSTRAINT "products_stock_minimo_no_negativo" CHECK ("products"."stock_minimo" >= 0),
	CONSTRAINT "products_precios_no_negativos" CHECK ("products"."precio_venta" >= 0 AND coalesce("products"."precio_compra", 0) >= 0)
);
--> statement-breakpoint
CREATE TABLE "services" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"descripcion" text,
	"precio" numeric(14, 2) NOT NULL,
	"costo" numeric(14, 2),
	"duracion_minutos" integer,
	"categoria_id" uuid,
	"activo" boolean DEFAULT true NOT NULL,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "services_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "services_precios_no_negativos" CHECK ("services"."precio" >= 0 AND coalesce("services"."costo", 0) >= 0),
	CONSTRAINT "services_duracion" CHECK ("services"."duracion_minutos" IS NULL OR "services"."duracion_minutos" BETWEEN 1 AND 1440)
);
--> statement-breakpoint
CREATE TABLE "stock_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"producto_id" uuid NOT NULL,
	"origen" text NOT NULL,
	"cantidad" numeric(14, 3) NOT NULL,
	"stock_resultante" numeric(14, 3) NOT NULL,
	"motivo" text,
	"referencia_id" uuid,
	"usuario_id" uuid,
	"fecha" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "stock_movements_business_id_key" UNIQUE("business_id","id")
);
--> statement-breakpoint
CREATE TABLE "subscriptions" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"cliente_id" uuid NOT NULL,
	"servicio_id" uuid,
	"nombre" text NOT NULL,
	"descripcion" text,
	"precio" numeric(14, 2) NOT NULL,
	"frecuencia" text NOT NULL,
	"fecha_inicio" date NOT NULL,
	"fecha_fin" date,
	"estado" text DEFAULT 'activa' NOT NULL,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "subscriptions_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "subscriptions_precio_no_negativo" CHECK ("subscriptions"."precio" >= 0),
	CONSTRAINT "subscriptions_fechas" CHECK ("subscriptions"."fecha_fin" IS NULL OR "subscriptions"."fecha_fin" >= "subscriptions"."fecha_inicio")
);
--> statement-breakpoint
CREATE TABLE "import_batches" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"archivo" text NOT NULL,
	"hoja" text NOT NULL,
	"columnas" jsonb NOT NULL,
	"columnas_ignoradas" jsonb NOT NULL,
	"columnas_originales" jsonb NOT NULL,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"expira_en" timestamp with time zone NOT NULL,
	CONSTRAINT "import_batches_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "import_batches_business_user_key" UNIQUE("business_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "import_rows" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"batch_id" uuid NOT NULL,
	"fila" integer NOT NULL,
	"accion" text NOT NULL,
	"producto_id" uuid,
	"datos" jsonb NOT NULL,
	"errores" jsonb NOT NULL,
	CONSTRAINT "import_rows_business_id_key" UNIQUE("business_id","id")
);
--> statement-breakpoint
ALTER TABLE "product_categories" ADD CONSTRAINT "product_categories_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "products" ADD CONSTRAINT "products_categoria_fk" FOREIGN KEY ("business_id","categoria_id") REFERENCES "public"."product_categories"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "services" ADD CONSTRAINT "services_categoria_fk" FOREIGN KEY ("business_id","categoria_id") REFERENCES "public"."product_categories"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_usuario_id_users_id_fk" FOREIGN KEY ("usuario_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "stock_movements" ADD CONSTRAINT "stock_movements_producto_fk" FOREIGN KEY ("business_id","producto_id") REFERENCES "public"."products"("business_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_cliente_fk" FOREIGN KEY ("business_id","cliente_id") REFERENCES "public"."customers"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "subscriptions" ADD CONSTRAINT "subscriptions_servicio_fk" FOREIGN KEY ("business_id","servicio_id") REFERENCES "public"."services"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_batches" ADD CONSTRAINT "import_batches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "import_rows" ADD CONSTRAINT "import_rows_batch_fk" FOREIGN KEY ("business_id","batch_id") REFERENCES "public"."import_batches"("business_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "product_categories_name_key" ON "product_categories" USING btree ("business_id",lower("nombre"));--> statement-breakpoint
CREATE UNIQUE INDEX "products_codigo_key" ON "products" USING btree ("business_id",lower("codigo")) WHERE "products"."codigo" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "products_codigo_barras_key" ON "products" USING btree ("business_id","codigo_barras") WHERE "products"."codigo_barras" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "products_nombre_idx" ON "products" USING btree ("business_id","nombre" COLLATE "es-AR-x-icu","id");--> statement-breakpoint
CREATE INDEX "products_categoria_idx" ON "products" USING btree ("business_id","categoria_id") WHERE "products"."categoria_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "products_busqueda_idx" ON "products" USING gin ("busqueda" gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "services_nombre_idx" ON "services" USING btree ("business_id","nombre" COLLATE "es-AR-x-icu");--> statement-breakpoint
CREATE INDEX "services_categoria_idx" ON "services" USING btree ("business_id","categoria_id") WHERE "services"."categoria_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "services_search_idx" ON "services" USING gin (f_unaccent(lower("nombre")) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "stock_movements_producto_idx" ON "stock_movements" USING btree ("business_id","producto_id","fecha" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "subscriptions_cliente_idx" ON "subscriptions" USING btree ("business_id","cliente_id");--> statement-breakpoint
CREATE INDEX "subscriptions_servicio_idx" ON "subscriptions" USING btree ("business_id","servicio_id") WHERE "subscriptions"."servicio_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "import_rows_batch_fila_idx" ON "import_rows" USING btree ("batch_id","fila");