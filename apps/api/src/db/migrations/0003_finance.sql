CREATE TABLE "finance_accounts" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"tipo" text NOT NULL,
	"cliente_id" uuid,
	"proveedor_id" uuid,
	"proveedor_nombre" text,
	"monto" numeric(14, 2) NOT NULL,
	"fecha_emision" date NOT NULL,
	"fecha_vencimiento" date NOT NULL,
	"estado" text DEFAULT 'pendiente' NOT NULL,
	"descripcion" text NOT NULL,
	"observaciones" text,
	"compra_id" uuid,
	"movimiento_id" uuid,
	"fecha_pago" date,
	"pagado_en" timestamp with time zone,
	"creado_por" uuid,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finance_accounts_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "finance_accounts_monto_positive" CHECK ("finance_accounts"."monto" > 0),
	CONSTRAINT "finance_accounts_fechas" CHECK ("finance_accounts"."fecha_vencimiento" >= "finance_accounts"."fecha_emision"),
	CONSTRAINT "finance_accounts_pago" CHECK (("finance_accounts"."estado" = 'pagado') = ("finance_accounts"."pagado_en" IS NOT NULL AND "finance_accounts"."fecha_pago" IS NOT NULL))
);
--> statement-breakpoint
CREATE TABLE "finance_movements" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"tipo" text NOT NULL,
	"categoria_id" uuid,
	"monto" numeric(14, 2) NOT NULL,
	"fecha" date NOT NULL,
	"metodo_pago" text NOT NULL,
	"descripcion" text,
	"observaciones" text,
	"cliente_id" uuid,
	"origen" text DEFAULT 'manual' NOT NULL,
	"venta_id" uuid,
	"compra_id" uuid,
	"cuenta_id" uuid,
	"anulado" boolean DEFAULT false NOT NULL,
	"creado_por" uuid,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "finance_movements_business_id_key" UNIQUE("business_id","id"),
	CONSTRAINT "finance_movements_monto_positive" CHECK ("finance_movements"."monto" > 0)
);
--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_creado_por_users_id_fk" FOREIGN KEY ("creado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_cliente_fk" FOREIGN KEY ("business_id","cliente_id") REFERENCES "public"."customers"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_accounts" ADD CONSTRAINT "finance_accounts_movimiento_fk" FOREIGN KEY ("business_id","movimiento_id") REFERENCES "public"."finance_movements"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_creado_por_users_id_fk" FOREIGN KEY ("creado_por") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_categoria_fk" FOREIGN KEY ("business_id","categoria_id") REFERENCES "public"."finance_categories"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_cliente_fk" FOREIGN KEY ("business_id","cliente_id") REFERENCES "public"."customers"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "finance_movements" ADD CONSTRAINT "finance_movements_cuenta_fk" FOREIGN KEY ("business_id","cuenta_id") REFERENCES "public"."finance_accounts"("business_id","id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "finance_accounts_business_due_idx" ON "finance_accounts" USING btree ("business_id","tipo","fecha_vencimiento");--> statement-breakpoint
CREATE INDEX "finance_accounts_cliente_idx" ON "finance_accounts" USING btree ("business_id","cliente_id") WHERE "finance_accounts"."cliente_id" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "finance_movements_business_fecha_idx" ON "finance_movements" USING btree ("business_id","fecha" DESC NULLS LAST,"creado_en" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "finance_movements_categoria_idx" ON "finance_movements" USING btree ("business_id","categoria_id");--> statement-breakpoint
CREATE INDEX "finance_movements_cliente_idx" ON "finance_movements" USING btree ("business_id","cliente_id") WHERE "finance_movements"."cliente_id" IS NOT NULL;