-- Issue 30, decision 0036: a customer id made on the device (offline POS) that another business
-- already uses is refused. The request runs as the app role, which (with row-level security) sees
-- only its own business's rows, so the check across businesses is this function, run with the
-- rights of its owner (the migrations' role, owner of the table). It answers only yes or no.
-- It first takes a transaction-scoped advisory lock on the id, so that two businesses (or two
-- requests of one) creating the same id wait for each other: the second sees the first's row.
-- row_security = off: should a policy ever apply to the owner (FORCE ROW LEVEL SECURITY), the
-- query fails instead of quietly seeing one business only and letting the id through.
CREATE FUNCTION "cliente_id_tomado"(p_id uuid, p_business uuid) RETURNS boolean
  LANGUAGE plpgsql VOLATILE SECURITY DEFINER
  SET search_path = public, pg_temp
  SET row_security = off
AS $$
BEGIN
  PERFORM pg_advisory_xact_lock(hashtextextended('cliente-id:' || p_id::text, 0));
  RETURN EXISTS (SELECT 1 FROM customers WHERE id = p_id AND business_id <> p_business);
END $$;
