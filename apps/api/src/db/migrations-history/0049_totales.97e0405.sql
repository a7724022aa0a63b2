-- Issue 20: the sales report and the cash flow read totals kept per day and per month instead of
-- adding up a month of sales, lines, payments and movements on every request. The totals are
-- written by triggers in the same transaction as the rows they add up, so they are never stale and
-- no write path can forget them. See docs/decisions/0027-totales.md.
--
-- Each row of sales, sale_items, devoluciones, devolucion_items and finance_movements contributes
-- to some totals; a trigger adds its contribution when it is written and takes it away when it is
-- changed or deleted. The triggers are deferred to the commit and take a per-business transaction
-- lock first: every transaction of a business touches its totals at its very end, one at a time,
-- after every other lock it takes, so they cannot deadlock with each other or with the rows (stock,
-- sale counter) the writes lock. Days and months are the business's calendar (tenant_settings'
-- timezone); changing it rebuilds the business's totals.
CREATE TABLE "totales_ventas_dia" (
	"business_id" uuid NOT NULL CONSTRAINT "totales_ventas_dia_business_id_businesses_id_fk" REFERENCES "businesses"("id") ON DELETE CASCADE,
	"dia" date NOT NULL,
	"ventas" integer DEFAULT 0 NOT NULL,
	"total" numeric DEFAULT 0 NOT NULL,
	"costo" numeric DEFAULT 0 NOT NULL,
	"descuento" numeric DEFAULT 0 NOT NULL,
	"anuladas" integer DEFAULT 0 NOT NULL,
	"devuelto" numeric DEFAULT 0 NOT NULL,
	"costo_devuelto" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "totales_ventas_dia_pkey" PRIMARY KEY ("business_id", "dia")
);--> statement-breakpoint
CREATE TABLE "totales_medios_dia" (
	"business_id" uuid NOT NULL CONSTRAINT "totales_medios_dia_business_id_businesses_id_fk" REFERENCES "businesses"("id") ON DELETE CASCADE,
	"dia" date NOT NULL,
	"metodo_pago" text NOT NULL,
	"ventas" integer DEFAULT 0 NOT NULL,
	"total" numeric DEFAULT 0 NOT NULL,
	"filas" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "totales_medios_dia_pkey" PRIMARY KEY ("business_id", "dia", "metodo_pago")
);--> statement-breakpoint
CREATE TABLE "totales_clientes_mes" (
	"business_id" uuid NOT NULL CONSTRAINT "totales_clientes_mes_business_id_businesses_id_fk" REFERENCES "businesses"("id") ON DELETE CASCADE,
	"mes" date NOT NULL,
	"cliente_id" uuid NOT NULL,
	"ventas" integer DEFAULT 0 NOT NULL,
	"total" numeric DEFAULT 0 NOT NULL,
	"filas" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "totales_clientes_mes_pkey" PRIMARY KEY ("business_id", "mes", "cliente_id")
);--> statement-breakpoint
CREATE TABLE "totales_items_mes" (
	"business_id" uuid NOT NULL CONSTRAINT "totales_items_mes_business_id_businesses_id_fk" REFERENCES "businesses"("id") ON DELETE CASCADE,
	"mes" date NOT NULL,
	"tipo" text NOT NULL,
	"item_id" uuid NOT NULL,
	"nombre" text NOT NULL,
	"cantidad" numeric DEFAULT 0 NOT NULL,
	"total" numeric DEFAULT 0 NOT NULL,
	"costo" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "totales_items_mes_pkey" PRIMARY KEY ("business_id", "mes", "tipo", "item_id")
);--> statement-breakpoint
CREATE TABLE "totales_flujo_dia" (
	"business_id" uuid NOT NULL CONSTRAINT "totales_flujo_dia_business_id_businesses_id_fk" REFERENCES "businesses"("id") ON DELETE CASCADE,
	"fecha" date NOT NULL,
	"ingresos" numeric DEFAULT 0 NOT NULL,
	"egresos" numeric DEFAULT 0 NOT NULL,
	CONSTRAINT "totales_flujo_dia_pkey" PRIMARY KEY ("business_id", "fecha")
);--> statement-breakpoint

-- The business's calendar, and its lock: held from the first total a transaction writes to its end.
CREATE FUNCTION "totales_zona"(bid uuid) RETURNS text LANGUAGE sql STABLE AS $$
  SELECT coalesce((SELECT timezone FROM tenant_settings WHERE business_id = bid), 'America/Argentina/Buenos_Aires')
$$;--> statement-breakpoint
CREATE FUNCTION "totales_bloquear"(bid uuid) RETURNS void LANGUAGE sql AS $$
  SELECT pg_advisory_xact_lock(hashtextextended('totales:' || bid::text, 0))
$$;--> statement-breakpoint

-- A sale: its day (completed or voided), its customer's month and its medios (from its payments,
-- written in the sale's own transaction and never changed).
CREATE FUNCTION "totales_venta"(s sales, signo integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_dia date := (s.fecha AT TIME ZONE totales_zona(s.business_id))::date;
BEGIN
  IF s.estado <> 'completada' THEN
    INSERT INTO totales_ventas_dia AS t (business_id, dia, anuladas) VALUES (s.business_id, v_dia, signo)
    ON CONFLICT (business_id, dia) DO UPDATE SET anuladas = t.anuladas + excluded.anuladas;
    RETURN;
  END IF;
  INSERT INTO totales_ventas_dia AS t (business_id, dia, ventas, total, costo, descuento)
  VALUES (s.business_id, v_dia, signo, signo * s.total, signo * s.costo_estimado, signo * s.descuento)
  ON CONFLICT (business_id, dia) DO UPDATE
    SET ventas = t.ventas + excluded.ventas, total = t.total + excluded.total,
        costo = t.costo + excluded.costo, descuento = t.descuento + excluded.descuento;
  INSERT INTO totales_clientes_mes AS t (business_id, mes, cliente_id, ventas, total, filas)
  VALUES (s.business_id, date_trunc('month', v_dia)::date,
          coalesce(s.cliente_id, '00000000-0000-0000-0000-000000000000'), signo, signo * s.total, signo)
  ON CONFLICT (business_id, mes, cliente_id) DO UPDATE
    SET ventas = t.ventas + excluded.ventas, total = t.total + excluded.total, filas = t.filas + excluded.filas;
  INSERT INTO totales_medios_dia AS t (business_id, dia, metodo_pago, ventas, total, filas)
  SELECT s.business_id, v_dia, p.metodo_pago, signo, signo * sum(p.total), signo
    FROM sale_payments p
   WHERE p.business_id = s.business_id AND p.venta_id = s.id
   GROUP BY p.metodo_pago
   ORDER BY p.metodo_pago
  ON CONFLICT (business_id, dia, metodo_pago) DO UPDATE
    SET ventas = t.ventas + excluded.ventas, total = t.total + excluded.total, filas = t.filas + excluded.filas;
END $$;--> statement-breakpoint

-- A line sold: its product's or service's month (the name is kept only as a fallback: the
-- report names items by their current name).
CREATE FUNCTION "totales_linea"(i sale_items, signo integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF i.fecha IS NULL THEN RETURN; END IF;
  INSERT INTO totales_items_mes AS t (business_id, mes, tipo, item_id, nombre, cantidad, total, costo)
  VALUES (i.business_id, date_trunc('month', (i.fecha AT TIME ZONE totales_zona(i.business_id))::date)::date, i.tipo,
          coalesce(i.producto_id, i.servicio_id), i.nombre,
          CASE WHEN i.anulada THEN 0 ELSE signo * i.cantidad END,
          CASE WHEN i.anulada THEN 0 ELSE signo * i.subtotal END,
          CASE WHEN i.anulada THEN 0 ELSE signo * i.costo_total END)
  ON CONFLICT (business_id, mes, tipo, item_id) DO UPDATE
    SET nombre = greatest(t.nombre, excluded.nombre), cantidad = t.cantidad + excluded.cantidad,
        total = t.total + excluded.total, costo = t.costo + excluded.costo;
END $$;--> statement-breakpoint

-- A return, on its own date: money given back by its medio and to its customer.
CREATE FUNCTION "totales_devolucion"(d devoluciones, signo integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_dia date := (d.fecha AT TIME ZONE totales_zona(d.business_id))::date;
BEGIN
  INSERT INTO totales_ventas_dia AS t (business_id, dia, devuelto) VALUES (d.business_id, v_dia, signo * d.monto)
  ON CONFLICT (business_id, dia) DO UPDATE SET devuelto = t.devuelto + excluded.devuelto;
  INSERT INTO totales_clientes_mes AS t (business_id, mes, cliente_id, total, filas)
  VALUES (d.business_id, date_trunc('month', v_dia)::date,
          coalesce(d.cliente_id, '00000000-0000-0000-0000-000000000000'), -signo * d.monto, signo)
  ON CONFLICT (business_id, mes, cliente_id) DO UPDATE SET total = t.total + excluded.total, filas = t.filas + excluded.filas;
  INSERT INTO totales_medios_dia AS t (business_id, dia, metodo_pago, total, filas)
  VALUES (d.business_id, v_dia, d.metodo_pago, -signo * d.monto, signo)
  ON CONFLICT (business_id, dia, metodo_pago) DO UPDATE SET total = t.total + excluded.total, filas = t.filas + excluded.filas;
END $$;--> statement-breakpoint

-- A line of a return, on the return's date: its cost, and what went back of the item.
CREATE FUNCTION "totales_devolucion_item"(di devolucion_items, signo integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  d devoluciones;
  i sale_items;
  v_dia date;
BEGIN
  SELECT * INTO d FROM devoluciones WHERE business_id = di.business_id AND id = di.devolucion_id;
  SELECT * INTO i FROM sale_items WHERE business_id = di.business_id AND id = di.venta_item_id;
  IF d.id IS NULL OR i.id IS NULL THEN RETURN; END IF;
  v_dia := (d.fecha AT TIME ZONE totales_zona(d.business_id))::date;
  INSERT INTO totales_ventas_dia AS t (business_id, dia, costo_devuelto) VALUES (d.business_id, v_dia, signo * di.costo)
  ON CONFLICT (business_id, dia) DO UPDATE SET costo_devuelto = t.costo_devuelto + excluded.costo_devuelto;
  INSERT INTO totales_items_mes AS t (business_id, mes, tipo, item_id, nombre, cantidad, total, costo)
  VALUES (d.business_id, date_trunc('month', v_dia)::date, i.tipo, coalesce(i.producto_id, i.servicio_id), i.nombre,
          -signo * di.cantidad, -signo * di.subtotal, -signo * di.costo)
  ON CONFLICT (business_id, mes, tipo, item_id) DO UPDATE
    SET nombre = greatest(t.nombre, excluded.nombre), cantidad = t.cantidad + excluded.cantidad,
        total = t.total + excluded.total, costo = t.costo + excluded.costo;
END $$;--> statement-breakpoint

-- A movement not voided: money in (net of the money a return gave back, decision 0009) or out.
CREATE FUNCTION "totales_movimiento"(m finance_movements, signo integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF m.anulado THEN RETURN; END IF;
  INSERT INTO totales_flujo_dia AS t (business_id, fecha, ingresos, egresos)
  VALUES (m.business_id, m.fecha,
          CASE WHEN m.tipo = 'ingreso' THEN signo * m.monto WHEN m.origen = 'devolucion' THEN -signo * m.monto ELSE 0 END,
          CASE WHEN m.tipo = 'ingreso' OR m.origen = 'devolucion' THEN 0 ELSE signo * m.monto END)
  ON CONFLICT (business_id, fecha) DO UPDATE SET ingresos = t.ingresos + excluded.ingresos, egresos = t.egresos + excluded.egresos;
END $$;--> statement-breakpoint

-- The one trigger function: the old row's contribution out, the new row's in. A business being
-- deleted takes its totals with it (cascade): its rows' deletions add nothing.
CREATE FUNCTION "totales_registrar"() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bid uuid := CASE WHEN TG_OP = 'DELETE' THEN OLD.business_id ELSE NEW.business_id END;
BEGIN
  IF TG_OP = 'DELETE' AND NOT EXISTS (SELECT 1 FROM businesses WHERE id = bid) THEN RETURN NULL; END IF;
  PERFORM totales_bloquear(bid);
  IF TG_OP <> 'INSERT' THEN
    CASE TG_TABLE_NAME
      WHEN 'sales' THEN PERFORM totales_venta(OLD, -1);
      WHEN 'sale_items' THEN PERFORM totales_linea(OLD, -1);
      WHEN 'devoluciones' THEN PERFORM totales_devolucion(OLD, -1);
      WHEN 'devolucion_items' THEN PERFORM totales_devolucion_item(OLD, -1);
      WHEN 'finance_movements' THEN PERFORM totales_movimiento(OLD, -1);
    END CASE;
  END IF;
  IF TG_OP <> 'DELETE' THEN
    CASE TG_TABLE_NAME
      WHEN 'sales' THEN PERFORM totales_venta(NEW, 1);
      WHEN 'sale_items' THEN PERFORM totales_linea(NEW, 1);
      WHEN 'devoluciones' THEN PERFORM totales_devolucion(NEW, 1);
      WHEN 'devolucion_items' THEN PERFORM totales_devolucion_item(NEW, 1);
      WHEN 'finance_movements' THEN PERFORM totales_movimiento(NEW, 1);
    END CASE;
  END IF;
  RETURN NULL;
END $$;--> statement-breakpoint

CREATE CONSTRAINT TRIGGER "sales_totales" AFTER INSERT OR DELETE ON "sales"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION totales_registrar();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sales_totales_cambio" AFTER UPDATE ON "sales" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.estado IS DISTINCT FROM NEW.estado OR OLD.fecha IS DISTINCT FROM NEW.fecha OR OLD.total IS DISTINCT FROM NEW.total
        OR OLD.costo_estimado IS DISTINCT FROM NEW.costo_estimado OR OLD.descuento IS DISTINCT FROM NEW.descuento
        OR OLD.cliente_id IS DISTINCT FROM NEW.cliente_id)
  EXECUTE FUNCTION totales_registrar();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sale_items_totales" AFTER INSERT OR DELETE ON "sale_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION totales_registrar();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "sale_items_totales_cambio" AFTER UPDATE ON "sale_items" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.anulada IS DISTINCT FROM NEW.anulada OR OLD.fecha IS DISTINCT FROM NEW.fecha OR OLD.cantidad IS DISTINCT FROM NEW.cantidad
        OR OLD.subtotal IS DISTINCT FROM NEW.subtotal OR OLD.costo_total IS DISTINCT FROM NEW.costo_total
        OR OLD.tipo IS DISTINCT FROM NEW.tipo OR OLD.producto_id IS DISTINCT FROM NEW.producto_id
        OR OLD.servicio_id IS DISTINCT FROM NEW.servicio_id OR OLD.nombre IS DISTINCT FROM NEW.nombre)
  EXECUTE FUNCTION totales_registrar();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "devoluciones_totales" AFTER INSERT OR UPDATE OR DELETE ON "devoluciones"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION totales_registrar();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "devolucion_items_totales" AFTER INSERT OR UPDATE OR DELETE ON "devolucion_items"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION totales_registrar();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "finance_movements_totales" AFTER INSERT OR DELETE ON "finance_movements"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION totales_registrar();--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "finance_movements_totales_cambio" AFTER UPDATE ON "finance_movements" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.anulado IS DISTINCT FROM NEW.anulado OR OLD.fecha IS DISTINCT FROM NEW.fecha OR OLD.monto IS DISTINCT FROM NEW.monto
        OR OLD.tipo IS DISTINCT FROM NEW.tipo OR OLD.origen IS DISTINCT FROM NEW.origen)
  EXECUTE FUNCTION totales_registrar();--> statement-breakpoint

-- All of a business's totals again from its rows: after its calendar changes, and for data
-- loaded with triggers off (the benchmarks' history). Same rules as the triggers above.
CREATE FUNCTION "totales_rehacer"(bid uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zona text := totales_zona(bid);
BEGIN
  PERFORM totales_bloquear(bid);
  DELETE FROM totales_ventas_dia WHERE business_id = bid;
  DELETE FROM totales_medios_dia WHERE business_id = bid;
  DELETE FROM totales_clientes_mes WHERE business_id = bid;
  DELETE FROM totales_items_mes WHERE business_id = bid;
  DELETE FROM totales_flujo_dia WHERE business_id = bid;
  INSERT INTO totales_ventas_dia (business_id, dia, ventas, total, costo, descuento, anuladas, devuelto, costo_devuelto)
  SELECT bid, x.dia, sum(x.ventas), sum(x.total), sum(x.costo), sum(x.descuento), sum(x.anuladas), sum(x.devuelto), sum(x.costo_devuelto)
    FROM (SELECT (s.fecha AT TIME ZONE zona)::date AS dia,
                 count(*) FILTER (WHERE s.estado = 'completada') AS ventas,
                 coalesce(sum(s.total) FILTER (WHERE s.estado = 'completada'), 0) AS total,
                 coalesce(sum(s.costo_estimado) FILTER (WHERE s.estado = 'completada'), 0) AS costo,
                 coalesce(sum(s.descuento) FILTER (WHERE s.estado = 'completada'), 0) AS descuento,
                 count(*) FILTER (WHERE s.estado <> 'completada') AS anuladas, 0 AS devuelto, 0 AS costo_devuelto
            FROM sales s WHERE s.business_id = bid GROUP BY 1
          UNION ALL
          SELECT (d.fecha AT TIME ZONE zona)::date, 0, 0, 0, 0, 0, d.monto, 0 FROM devoluciones d WHERE d.business_id = bid
          UNION ALL
          SELECT (d.fecha AT TIME ZONE zona)::date, 0, 0, 0, 0, 0, 0, di.costo
            FROM devolucion_items di
            JOIN devoluciones d ON d.business_id = di.business_id AND d.id = di.devolucion_id
           WHERE di.business_id = bid) x
   GROUP BY x.dia;
  INSERT INTO totales_medios_dia (business_id, dia, metodo_pago, ventas, total, filas)
  SELECT bid, x.dia, x.metodo_pago, sum(x.ventas), sum(x.total), sum(x.filas)
    FROM (SELECT (s.fecha AT TIME ZONE zona)::date AS dia, p.metodo_pago, 1 AS ventas, sum(p.total) AS total, 1 AS filas
            FROM sales s
            JOIN sale_payments p ON p.business_id = s.business_id AND p.venta_id = s.id
           WHERE s.business_id = bid AND s.estado = 'completada'
           GROUP BY s.id, 1, 2
          UNION ALL
          SELECT (d.fecha AT TIME ZONE zona)::date, d.metodo_pago, 0, -d.monto, 1 FROM devoluciones d WHERE d.business_id = bid) x
   GROUP BY x.dia, x.metodo_pago;
  INSERT INTO totales_clientes_mes (business_id, mes, cliente_id, ventas, total, filas)
  SELECT bid, x.mes, x.cliente_id, sum(x.ventas), sum(x.total), sum(x.filas)
    FROM (SELECT date_trunc('month', (s.fecha AT TIME ZONE zona)::date)::date AS mes,
                 coalesce(s.cliente_id, '00000000-0000-0000-0000-000000000000') AS cliente_id, 1 AS ventas, s.total, 1 AS filas
            FROM sales s WHERE s.business_id = bid AND s.estado = 'completada'
          UNION ALL
          SELECT date_trunc('month', (d.fecha AT TIME ZONE zona)::date)::date,
                 coalesce(d.cliente_id, '00000000-0000-0000-0000-000000000000'), 0, -d.monto, 1
            FROM devoluciones d WHERE d.business_id = bid) x
   GROUP BY x.mes, x.cliente_id;
  INSERT INTO totales_items_mes (business_id, mes, tipo, item_id, nombre, cantidad, total, costo)
  SELECT bid, x.mes, x.tipo, x.item_id, max(x.nombre), sum(x.cantidad), sum(x.total), sum(x.costo)
    FROM (SELECT date_trunc('month', (i.fecha AT TIME ZONE zona)::date)::date AS mes, i.tipo,
                 coalesce(i.producto_id, i.servicio_id) AS item_id, i.nombre,
                 CASE WHEN i.anulada THEN 0 ELSE i.cantidad END AS cantidad,
                 CASE WHEN i.anulada THEN 0 ELSE i.subtotal END AS total,
                 CASE WHEN i.anulada THEN 0 ELSE i.costo_total END AS costo
            FROM sale_items i WHERE i.business_id = bid AND i.fecha IS NOT NULL
          UNION ALL
          SELECT date_trunc('month', (d.fecha AT TIME ZONE zona)::date)::date, i.tipo, coalesce(i.producto_id, i.servicio_id),
                 i.nombre, -di.cantidad, -di.subtotal, -di.costo
            FROM devolucion_items di
            JOIN devoluciones d ON d.business_id = di.business_id AND d.id = di.devolucion_id
            JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
           WHERE di.business_id = bid) x
   GROUP BY x.mes, x.tipo, x.item_id;
  INSERT INTO totales_flujo_dia (business_id, fecha, ingresos, egresos)
  SELECT bid, m.fecha,
         coalesce(sum(CASE WHEN m.tipo = 'ingreso' THEN m.monto ELSE -m.monto END) FILTER (WHERE m.tipo = 'ingreso' OR m.origen = 'devolucion'), 0),
         coalesce(sum(m.monto) FILTER (WHERE NOT (m.tipo = 'ingreso' OR m.origen = 'devolucion')), 0)
    FROM finance_movements m
   WHERE m.business_id = bid AND NOT m.anulado
   GROUP BY m.fecha;
END $$;--> statement-breakpoint

-- A business's calendar changes: its days and months are counted again.
CREATE FUNCTION "totales_zona_cambiada"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'UPDATE' AND NEW.timezone IS NOT DISTINCT FROM OLD.timezone THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' AND NEW.timezone = 'America/Argentina/Buenos_Aires' THEN RETURN NULL; END IF;
  PERFORM totales_rehacer(NEW.business_id);
  RETURN NULL;
END $$;--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "tenant_settings_totales" AFTER INSERT OR UPDATE OF "timezone" ON "tenant_settings"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION totales_zona_cambiada();--> statement-breakpoint

-- The totals of the businesses there are.
SELECT totales_rehacer(id) FROM businesses;
