-- Stock at the counter (issue 15). A product may not track stock (a service-like item kept as a
-- product: its sales change no stock). A business may allow selling without stock: the sale goes
-- through and the stock goes negative, shown as such. The CHECK that kept stock at or above 0
-- gives way to the guards of each change (applyStockChange and record-sale refuse a short stock
-- unless the business allows it), so nothing goes negative by accident.
ALTER TABLE "products" ADD COLUMN "controla_stock" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "tenant_settings" ADD COLUMN "vender_sin_stock" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "products" DROP CONSTRAINT "products_stock_no_negativo";
--> statement-breakpoint
-- A void gives back what the sale's movements took: found by the sale's id.
CREATE INDEX "stock_movements_referencia_idx" ON "stock_movements" USING btree ("business_id","referencia_id") WHERE "stock_movements"."referencia_id" IS NOT NULL;
