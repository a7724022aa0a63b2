CREATE TABLE "customers" (
	"id" uuid PRIMARY KEY DEFAULT gen_random_uuid() NOT NULL,
	"business_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"apellido" text,
	"email" text,
	"telefono" text,
	"direccion" text,
	"documento_tipo" text,
	"documento_numero" text,
	"condicion_iva" text DEFAULT 'consumidor_final' NOT NULL,
	"notas" text,
	"creado_en" timestamp with time zone DEFAULT now() NOT NULL,
	"actualizado_en" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "customers_business_id_key" UNIQUE("business_id","id")
);
--> statement-breakpoint
ALTER TABLE "customers" ADD CONSTRAINT "customers_business_id_businesses_id_fk" FOREIGN KEY ("business_id") REFERENCES "public"."businesses"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "customers_document_key" ON "customers" USING btree ("business_id","documento_tipo","documento_numero") WHERE "customers"."documento_numero" IS NOT NULL;--> statement-breakpoint
CREATE INDEX "customers_name_idx" ON "customers" USING btree ("business_id","apellido","nombre");--> statement-breakpoint
CREATE INDEX "customers_search_idx" ON "customers" USING gin (f_unaccent(lower(coalesce("nombre", '') || ' ' || coalesce("apellido", '') || ' ' || coalesce("email", '') || ' ' || coalesce("documento_numero", ''))) gin_trgm_ops);