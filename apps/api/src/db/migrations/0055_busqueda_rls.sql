-- Decision 0031, searches: under row-level security PostgreSQL uses a query condition as an index
-- condition only if it is leakproof, and LIKE, lower and f_unaccent are not, so the pg_trgm GIN
-- indexes stopped serving searches. These functions run the indexed part of a search as the
-- owner (who is not subject to RLS, so the planner takes the trigram index again) and return the
-- ids of the rows of the CURRENT business only: the business comes from the transaction's
-- app.business_id setting, the same one the policies read, never from a parameter. Without it they
-- return nothing. The caller filters with `id = ANY (ARRAY(SELECT buscar_…(words)))` next to its
-- own business_id predicate and its other conditions, under RLS as before.
--
-- `palabras`: the words of the search, each already escaped for LIKE (\ % _), every one of which
-- must appear in the folded text (the expression of the table's GIN index, so it is used).
CREATE FUNCTION buscar_ids(tabla regclass, texto text, palabras text[]) RETURNS SETOF uuid
  LANGUAGE plpgsql STABLE
  SET search_path = public, pg_temp
AS $$
DECLARE
  negocio uuid := nullif(current_setting('app.business_id', true), '')::uuid;
  consulta text := format('SELECT id FROM %s WHERE business_id = $1', tabla);
BEGIN
  IF negocio IS NULL OR coalesce(cardinality(palabras), 0) = 0 THEN
    RETURN;
  END IF;
  FOR i IN 1 .. cardinality(palabras) LOOP
    consulta := consulta || format(' AND %s LIKE ''%%'' || f_unaccent(lower($2[%s])) || ''%%''', texto, i);
  END LOOP;
  -- A one-shot plan with the values known: the patterns fold to constants, as in the app's query.
  RETURN QUERY EXECUTE consulta USING negocio, palabras;
END $$;--> statement-breakpoint
-- Only the functions below (as the owner) call it: it takes a table and an expression.
REVOKE EXECUTE ON FUNCTION buscar_ids(regclass, text, text[]) FROM PUBLIC;--> statement-breakpoint
CREATE FUNCTION buscar_productos(palabras text[]) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER ROWS 100
  SET search_path = public, pg_temp
AS $$ SELECT buscar_ids('products', 'busqueda', palabras) $$;--> statement-breakpoint
CREATE FUNCTION buscar_servicios(palabras text[]) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER ROWS 100
  SET search_path = public, pg_temp
AS $$ SELECT buscar_ids('services', 'f_unaccent(lower(nombre))', palabras) $$;--> statement-breakpoint
CREATE FUNCTION buscar_clientes(palabras text[]) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER ROWS 100
  SET search_path = public, pg_temp
AS $$ SELECT buscar_ids('customers',
  $t$f_unaccent(lower(coalesce(nombre, '') || ' ' || coalesce(apellido, '') || ' ' || coalesce(email, '') || ' ' || coalesce(documento_numero, '')))$t$,
  palabras) $$;--> statement-breakpoint
CREATE FUNCTION buscar_proveedores(palabras text[]) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER ROWS 100
  SET search_path = public, pg_temp
AS $$ SELECT buscar_ids('suppliers',
  $t$f_unaccent(lower(nombre || ' ' || coalesce(cuit, '') || ' ' || coalesce(email, '') || ' ' || coalesce(contacto, '')))$t$,
  palabras) $$;--> statement-breakpoint
CREATE FUNCTION buscar_tareas(palabras text[]) RETURNS SETOF uuid
  LANGUAGE sql STABLE SECURITY DEFINER ROWS 100
  SET search_path = public, pg_temp
AS $$ SELECT buscar_ids('tasks', $t$f_unaccent(lower(titulo || ' ' || coalesce(descripcion, '')))$t$, palabras) $$;--> statement-breakpoint
-- Security definer: only the app role (granted at every start, roles.ts) may call them.
REVOKE EXECUTE ON FUNCTION buscar_productos(text[]), buscar_servicios(text[]), buscar_clientes(text[]),
  buscar_proveedores(text[]), buscar_tareas(text[]) FROM PUBLIC;
