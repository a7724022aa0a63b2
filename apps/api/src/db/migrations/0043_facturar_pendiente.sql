-- Crash-safe invoicing (decision 0013): what a sale asked of ARCA is stored with the sale, and a
-- marker says its comprobantes still have to be reconciled by the background sweep.
ALTER TABLE "sales" ADD COLUMN "facturar" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "facturar_receptor" jsonb;--> statement-breakpoint
ALTER TABLE "sales" ADD COLUMN "conciliar" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "sales_conciliar_idx" ON "sales" USING btree ("business_id","id") WHERE "sales"."conciliar";
