-- How the shop's scale prints its labels (null: the business sells no weighed items by label).
ALTER TABLE "tenant_settings" ADD COLUMN "balanza" jsonb;
