ALTER TABLE "sale_items" ADD COLUMN "fecha" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "sale_items" ADD COLUMN "anulada" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "sale_items_fecha_idx" ON "sale_items" USING btree ("business_id","fecha") WHERE NOT "sale_items"."anulada";