-- Issue 30, point 3, decision 0031: row-level security on every tenant table. The app role (no
-- BYPASSRLS) sees and writes only the rows of the business named by the transaction-local setting
-- app.business_id (db/tenant.ts sets it in every transaction), or every row when
-- app.todos_los_negocios is on (the reviewed cross-business paths). Without either, no rows. The
-- owner, who owns the tables and runs the migrations, is not subject to it (no FORCE). The
-- settings are read in sub-selects: evaluated once per statement, not once per row.
DO $$
DECLARE
  t text;
BEGIN
  FOR t IN
    SELECT c.relname
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
      JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'business_id' AND NOT a.attisdropped
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p')
  LOOP
    EXECUTE format('ALTER TABLE %I ENABLE ROW LEVEL SECURITY', t);
    EXECUTE format(
      'CREATE POLICY negocio_actual ON %I USING (%s) WITH CHECK (%s)', t,
      $p$business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on')$p$,
      $p$business_id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on')$p$);
  END LOOP;
END $$;--> statement-breakpoint
ALTER TABLE businesses ENABLE ROW LEVEL SECURITY;--> statement-breakpoint
CREATE POLICY negocio_actual ON businesses
  USING (id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'))
  WITH CHECK (id = (SELECT nullif(current_setting('app.business_id', true), '')::uuid) OR (SELECT current_setting('app.todos_los_negocios', true) = 'on'));
