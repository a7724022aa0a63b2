-- Decision 0061: the tenant policy as one equality. The policy of 0054 was
-- `business_id = <setting> OR <todos_los_negocios>`: the OR kept PostgreSQL from using it as an
-- index condition, so every row a statement read was tested once more (the product list's count
-- of 50,000 rows took three times as long as the owner's). Now `negocio_actual` is the equality
-- alone, which the planner merges with the statement's own `business_id = $1` (no per-row test),
-- and the reviewed cross-business paths (tenant.ts todosLosNegocios) take the role below for their
-- transaction (SET LOCAL ROLE), whose own policy needs the setting too. The app role is NOINHERIT:
-- it is a member only to be able to take the role, and that policy does not apply to it otherwise.
DO $$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'mostrador_todos_los_negocios') THEN
    BEGIN
      CREATE ROLE mostrador_todos_los_negocios NOLOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS NOINHERIT;
    EXCEPTION WHEN unique_violation OR duplicate_object THEN
      NULL; -- another database of the same server created it at the same time
    WHEN insufficient_privilege THEN
      RAISE EXCEPTION 'El usuario % no puede crear el rol mostrador_todos_los_negocios (hace falta CREATEROLE). Crealo una vez en el servidor: CREATE ROLE mostrador_todos_los_negocios NOLOGIN; (README, Operación)', current_user;
    END;
  END IF;
END $$;--> statement-breakpoint
DO $$
DECLARE
  t text;
  k text;
BEGIN
  FOR t, k IN
    SELECT c.relname, CASE WHEN c.relname = 'businesses' THEN 'id' ELSE 'business_id' END
      FROM pg_class c
      JOIN pg_namespace n ON n.oid = c.relnamespace
     WHERE n.nspname = 'public' AND c.relkind IN ('r', 'p') AND c.relrowsecurity
  LOOP
    EXECUTE format('DROP POLICY IF EXISTS negocio_actual ON %I', t);
    EXECUTE format('DROP POLICY IF EXISTS todos_los_negocios ON %I', t);
    EXECUTE format(
      'CREATE POLICY negocio_actual ON %I USING (%I = (SELECT nullif(current_setting(''app.business_id'', true), '''')::uuid)) WITH CHECK (%I = (SELECT nullif(current_setting(''app.business_id'', true), '''')::uuid))',
      t, k, k);
    EXECUTE format(
      'CREATE POLICY todos_los_negocios ON %I TO mostrador_todos_los_negocios USING ((SELECT current_setting(''app.todos_los_negocios'', true) = ''on'')) WITH CHECK ((SELECT current_setting(''app.todos_los_negocios'', true) = ''on''))',
      t);
  END LOOP;
END $$;
