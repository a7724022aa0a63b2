-- Decision 0031, amended by issue 33: the product list's search under row-level security took the
-- matching ids from buscar_productos and read each row again by its primary key, twice (the count,
-- then the page). This function answers the rows themselves, of the CURRENT business only (the
-- transaction's app.business_id, the setting the policies read; never a parameter; nothing
-- without it), so the list counts and pages them in one statement. It plans its own statement for
-- the trigram index (the GIN expression `busqueda`): PostgreSQL prices that bitmap close to a scan
-- of the business's rows, which really takes several times longer. buscar_productos stays for
-- instances of the previous version during an upgrade.
CREATE FUNCTION buscar_productos_filas(palabras text[]) RETURNS SETOF products
  LANGUAGE plpgsql STABLE SECURITY DEFINER ROWS 100
  SET search_path = public, pg_temp
  SET enable_seqscan = off
  SET enable_indexscan = off
AS $$
DECLARE
  negocio uuid := nullif(current_setting('app.business_id', true), '')::uuid;
  consulta text := 'SELECT * FROM products WHERE business_id = $1';
BEGIN
  IF negocio IS NULL OR coalesce(cardinality(palabras), 0) = 0 THEN
    RETURN;
  END IF;
  FOR i IN 1 .. cardinality(palabras) LOOP
    consulta := consulta || format(' AND busqueda LIKE ''%%'' || f_unaccent(lower($2[%s])) || ''%%''', i);
  END LOOP;
  RETURN QUERY EXECUTE consulta USING negocio, palabras;
END $$;--> statement-breakpoint
-- Security definer: only the app role (granted at every start, roles.ts) may call it.
REVOKE EXECUTE ON FUNCTION buscar_productos_filas(text[]) FROM PUBLIC;
