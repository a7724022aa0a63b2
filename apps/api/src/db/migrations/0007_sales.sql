CREATE TABLE "sale_counters" (
	"business_id" uuid PRIMARY KEY NOT NULL,
	"ultimo_numero" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sale_idempotency_keys" (
	"business_id" uuid NOT NULL,
	"user_id" uuid NOT NULL,
	"clave" text NOT NULL,
	"hash" text NOT NULL,
	"status" integer NOT NULL,
	"respuesta" jsonb NOT NULL,
	"venta_id" uuid,
	"creado_en" timestamp with time zone NOT NULL,
	CONSTRAINT "sale_idempotency_keys_pkey" PRIMARY KEY("business_id","user_id","clave")
);
--> statement-breakpoint
CREATE TABLE "sale_items" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"venta_id" uuid NOT NULL,
	"posicion" integer NOT NULL,
	"tipo" text NOT NULL,
	"producto_id" uuid,
	"servicio_id" uuid,
	"nombre" text NOT NULL,
	"cantidad" numeric(14, 3) NOT NULL,
	"precio_unitario" numeric(14, 2) NOT NULL,
	"subtotal" numeric(14, 2) NOT NULL,
	"costo_unitario" numeric(14, 2) DEFAULT '0' NOT NULL,
	"costo_total" numeric(14, 2) DEFAULT '0' NOT NULL,
	CONSTRAINT "sale_items_tipo" CHECK (("sale_items"."tipo" = 'producto' AND "sale_items"."producto_id" IS NOT NULL AND "sale_items"."servicio_id" IS NULL) OR ("sale_items"."tipo" = 'servicio' AND "sale_items"."servicio_id" IS NOT NULL AND "sale_items"."producto_id" IS NULL)),
	CONSTRAINT "sale_items_cantidad" CHECK ("sale_items"."cantidad" > 0),
	CONSTRAINT "sale_items_montos" CHECK ("sale_items"."precio_unitario" >= 0 AND "sale_items"."subtotal" >= 0 AND "sale_items"."costo_unitario" >= 0)
);
--> statement-breakpoint
CREATE TABLE "sales" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"numero" integer NOT NULL,
	"fecha" timestamp with time zone NOT NULL,
	"estado" text DEFAULT 'completada' NOT NULL,
	"cliente_id" uuid,
	"metodo_pago" text NOT NULL,
	"subtotal" numeric(14, 2) NOT NULL,
	"descuento" numeric(14, 2) DEFAULT '0' NOT NULL,
	"total" numeric(14, 2) NOT NULL,
	"costo_estimado" numeric(14, 2) DEFAULT '0' NOT NULL,
	"observaciones" text,
	"vendedor_id" uuid,
	"anulada_en" timestamp with time zone,
	"anulada_por" uuid,
	"motivo_anulacion" text,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sales_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "sales_business_numero_key" UNIQUE("business_id","numero"),
	CONSTRAINT "sales_montos" CHECK ("sales"."subtotal" >= 0 AND "sales"."descuento" >= 0 AND "sales"."total" >= 0),
	CONSTRAINT "sales_total" CHECK ("sales"."total" = "sales"."subtotal" - "sales"."descuento"),
	CONSTRAINT "sales_anulada" CHECK (("sales"."estado" = 'anulada') = ("sales"."anulada_en" IS NOT NULL))
);
--> statement-breakpoint
ALTER TABLE "sale_counters" ADD CONSTRAINT "sale_counters_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_idempotency_keys" ADD CONSTRAINT "sale_idempotency_keys_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_idempotency_keys" ADD CONSTRAINT "sale_idempotency_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_venta_fk" FOREIGN KEY ("business_id","venta_id") REFERENCES "public"."sales"("business_id","id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_producto_fk" FOREIGN KEY ("business_id","producto_id") REFERENCES "public"."products"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sale_items" ADD CONSTRAINT "sale_items_servicio_fk" FOREIGN KEY ("business_id","servicio_id") REFERENCES "public"."services"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_vendedor_id_users_id_fk" FOREIGN KEY ("vendedor_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_anulada_por_users_id_fk" FOREIGN KEY ("anulada_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sales" ADD CONSTRAINT "sales_cliente_fk" FOREIGN KEY ("business_id","cliente_id") REFERENCES "public"."customers"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sale_idempotency_keys_creado_idx" ON "sale_idempotency_keys" USING btree ("creado_en");--> statement-breakpoint
CREATE INDEX "sale_items_venta_idx" ON "sale_items" USING btree ("business_id","venta_id","posicion");--> statement-breakpoint
CREATE INDEX "sale_items_producto_idx" ON "sale_items" USING btree ("business_id","producto_id") WHERE "sale_items"."producto_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sale_items_servicio_idx" ON "sale_items" USING btree ("business_id","servicio_id") WHERE "sale_items"."servicio_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "sales_business_fecha_idx" ON "sales" USING btree ("business_id","fecha" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "sales_cliente_idx" ON "sales" USING btree ("business_id","cliente_id") WHERE "sales"."cliente_id" IS NOT NULL;