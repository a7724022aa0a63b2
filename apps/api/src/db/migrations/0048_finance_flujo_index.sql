-- The cash flow and the finance summary add up a month of movements (issue 20: about 80,000 in a
-- busy shop): with every column they read in the index they become index-only scans instead of
-- visiting the table's pages (70 ms → 25 ms measured on 1,000,000 movements). Voided movements
-- never count there, so they stay out of it.
CREATE INDEX "finance_movements_flujo_idx" ON "finance_movements" USING btree ("business_id","fecha","tipo","origen","monto") WHERE NOT "finance_movements"."anulado";
