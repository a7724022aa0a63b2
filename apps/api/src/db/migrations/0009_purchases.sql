CREATE TABLE "suppliers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"cuit" text,
	"email" text,
	"telefono" text,
	"direccion" text,
	"ciudad" text,
	"provincia" text,
	"pais" text,
	"contacto" text,
	"condiciones_pago" text,
	"estado" text DEFAULT 'activo' NOT NULL,
	"notas" text,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "suppliers_business_id_key" UNIQUE("business_id","id")
);
--> statement-breakpoint
CREATE TABLE "purchase_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"compra_id" uuid NOT NULL,
	"posicion" integer NOT NULL,
	"producto_id" uuid NOT NULL,
	"cantidad" numeric(14, 3) NOT NULL,
	"precio_unitario" numeric(14, 2) NOT NULL,
	"subtotal" numeric(14, 2) NOT NULL,
	"precio_compra_anterior" numeric(14, 2),
	CONSTRAINT "purchase_items_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "purchase_items_producto_key" UNIQUE("compra_id","producto_id"),
	CONSTRAINT "purchase_items_cantidad_positiva" CHECK ("purchase_items"."cantidad" > 0),
	CONSTRAINT "purchase_items_precio_no_negativo" CHECK ("purchase_items"."precio_unitario" >= 0)
);
--> statement-breakpoint
CREATE TABLE "purchases" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"numero" integer NOT NULL,
	"proveedor_id" uuid,
	"proveedor_nombre" text,
	"fecha" date NOT NULL,
	"fecha_entrega" date,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"condicion_pago" text DEFAULT 'contado' NOT NULL,
	"metodo_pago" text,
	"fecha_vencimiento" date,
	"observaciones" text,
	"total" numeric(14, 2) NOT NULL,
	"recibida_en" timestamp with time zone,
	"cancelada_en" timestamp with time zone,
	"creado_por" uuid,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "purchases_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "purchases_numero_key" UNIQUE("business_id","numero"),
	CONSTRAINT "purchases_total_no_negativo" CHECK ("purchases"."total" >= 0),
	CONSTRAINT "purchases_recibida" CHECK (("purchases"."estado" = 'recibida') = ("purchases"."recibida_en" IS NOT NULL)),
	CONSTRAINT "purchases_cuenta_corriente" CHECK ("purchases"."condicion_pago" = 'contado' OR ("purchases"."proveedor_id" IS NOT NULL AND "purchases"."fecha_vencimiento" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "suppliers" ADD CONSTRAINT "suppliers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_compra_fk" FOREIGN KEY ("business_id","compra_id") REFERENCES "public"."purchases"("business_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchase_items" ADD CONSTRAINT "purchase_items_producto_fk" FOREIGN KEY ("business_id","producto_id") REFERENCES "public"."products"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_creado_por_users_id_fk" FOREIGN KEY ("creado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "purchases" ADD CONSTRAINT "purchases_proveedor_fk" FOREIGN KEY ("business_id","proveedor_id") REFERENCES "public"."suppliers"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "suppliers_cuit_key" ON "suppliers" USING btree ("business_id","cuit") WHERE "suppliers"."cuit" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "suppliers_nombre_idx" ON "suppliers" USING btree ("business_id","nombre" COLLATE "es-AR-x-icu","id");--> statement-breakpoint
CREATE INDEX "suppliers_search_idx" ON "suppliers" USING gin (f_unaccent(lower("nombre" || ' ' || coalesce("cuit", '') || ' ' || coalesce("email", '') || ' ' || coalesce("contacto", ''))) gin_trgm_ops);--> statement-breakpoint
CREATE INDEX "purchase_items_compra_idx" ON "purchase_items" USING btree ("compra_id","posicion");--> statement-breakpoint
CREATE INDEX "purchase_items_producto_idx" ON "purchase_items" USING btree ("business_id","producto_id");--> statement-breakpoint
CREATE INDEX "purchases_business_fecha_idx" ON "purchases" USING btree ("business_id","fecha" DESC NULLS LAST,"numero" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "purchases_proveedor_idx" ON "purchases" USING btree ("business_id","proveedor_id","fecha" DESC NULLS LAST) WHERE "purchases"."proveedor_id" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_proveedor_fk" FOREIGN KEY ("business_id","proveedor_id") REFERENCES "public"."suppliers"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_compra_fk" FOREIGN KEY ("business_id","compra_id") REFERENCES "public"."purchases"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_compra_fk" FOREIGN KEY ("business_id","compra_id") REFERENCES "public"."purchases"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finance_accounts_proveedor_idx" ON "finance_accounts" USING btree ("business_id","proveedor_id") WHERE "finance_accounts"."proveedor_id" IS NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "finance_accounts_compra_key" ON "finance_accounts" USING btree ("business_id","compra_id") WHERE "finance_accounts"."compra_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "finance_movements_compra_idx" ON "finance_movements" USING btree ("business_id","compra_id") WHERE "finance_movements"."compra_id" IS NOT NULL;