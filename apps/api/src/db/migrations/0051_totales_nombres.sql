-- Decision 0034. 0049_totales.sql went out on main twice: at 97e0405 totals of items took the
-- greatest name seen and kept voided lines as zero rows; from 813305c on they keep the item's
-- current name (totales_item, renames followed by totales_renombrar) and skip voided lines. A
-- database made at 97e0405 had the first version and never got the second. This brings it to the
-- second, and its totals are counted again; on a database that has the second it changes nothing
-- (the same functions again, no totals counted).
SELECT set_config('mostrador.totales_primera_version', (to_regproc('totales_renombrar') IS NULL)::text, true);--> statement-breakpoint

CREATE OR REPLACE FUNCTION "totales_item"(bid uuid, v_mes date, v_tipo text, v_item uuid, v_nombre text,
                               v_cantidad numeric, v_total numeric, v_costo numeric) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  UPDATE totales_items_mes AS t
     SET cantidad = t.cantidad + v_cantidad, total = t.total + v_total, costo = t.costo + v_costo
   WHERE t.business_id = bid AND t.mes = v_mes AND t.tipo = v_tipo AND t.item_id = v_item;
  IF FOUND THEN RETURN; END IF;
  INSERT INTO totales_items_mes AS t (business_id, mes, tipo, item_id, nombre, cantidad, total, costo)
  VALUES (bid, v_mes, v_tipo, v_item,
          coalesce(CASE WHEN v_tipo = 'producto' THEN (SELECT p.nombre FROM products p WHERE p.business_id = bid AND p.id = v_item)
                        ELSE (SELECT sv.nombre FROM services sv WHERE sv.business_id = bid AND sv.id = v_item) END, v_nombre),
          v_cantidad, v_total, v_costo)
  ON CONFLICT (business_id, mes, tipo, item_id) DO UPDATE
    SET cantidad = t.cantidad + excluded.cantidad, total = t.total + excluded.total, costo = t.costo + excluded.costo;
END $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION "totales_linea"(i sale_items, signo integer) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF i.fecha IS NULL OR i.anulada THEN RETURN; END IF;
  PERFORM totales_item(i.business_id, date_trunc('month', (i.fecha AT TIME ZONE totales_zona(i.business_id))::date)::date,
                       i.tipo, coalesce(i.producto_id, i.servicio_id), i.nombre,
                       signo * i.cantidad, signo * i.subtotal, signo * i.costo_total);
END $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION "totales_devolucion_item"(di devolucion_items, signo integer) RETURNS void LANGUAGE plpgsql AS $$
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
  PERFORM totales_item(d.business_id, date_trunc('month', v_dia)::date, i.tipo, coalesce(i.producto_id, i.servicio_id), i.nombre,
                       -signo * di.cantidad, -signo * di.subtotal, -signo * di.costo);
END $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION "totales_renombrar"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM totales_bloquear(NEW.business_id);
  UPDATE totales_items_mes SET nombre = NEW.nombre
   WHERE business_id = NEW.business_id AND tipo = TG_ARGV[0] AND item_id = NEW.id AND nombre IS DISTINCT FROM NEW.nombre;
  RETURN NULL;
END $$;--> statement-breakpoint
DROP TRIGGER IF EXISTS "products_totales_nombre" ON "products";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "products_totales_nombre" AFTER UPDATE ON "products" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.nombre IS DISTINCT FROM NEW.nombre) EXECUTE FUNCTION totales_renombrar('producto');--> statement-breakpoint
DROP TRIGGER IF EXISTS "services_totales_nombre" ON "services";--> statement-breakpoint
CREATE CONSTRAINT TRIGGER "services_totales_nombre" AFTER UPDATE ON "services" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.nombre IS DISTINCT FROM NEW.nombre) EXECUTE FUNCTION totales_renombrar('servicio');--> statement-breakpoint

CREATE OR REPLACE FUNCTION "totales_rehacer"(bid uuid) RETURNS void LANGUAGE plpgsql AS $$
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
  SELECT bid, x.mes, x.tipo, x.item_id,
         coalesce(max(p.nombre), max(sv.nombre), max(x.nombre)), sum(x.cantidad), sum(x.total), sum(x.costo)
    FROM (SELECT date_trunc('month', (i.fecha AT TIME ZONE zona)::date)::date AS mes, i.tipo,
                 coalesce(i.producto_id, i.servicio_id) AS item_id, i.nombre, i.cantidad, i.subtotal AS total, i.costo_total AS costo
            FROM sale_items i WHERE i.business_id = bid AND i.fecha IS NOT NULL AND NOT i.anulada
          UNION ALL
          SELECT date_trunc('month', (d.fecha AT TIME ZONE zona)::date)::date, i.tipo, coalesce(i.producto_id, i.servicio_id),
                 i.nombre, -di.cantidad, -di.subtotal, -di.costo
            FROM devolucion_items di
            JOIN devoluciones d ON d.business_id = di.business_id AND d.id = di.devolucion_id
            JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
           WHERE di.business_id = bid) x
    LEFT JOIN products p ON x.tipo = 'producto' AND p.business_id = bid AND p.id = x.item_id
    LEFT JOIN services sv ON x.tipo = 'servicio' AND sv.business_id = bid AND sv.id = x.item_id
   GROUP BY x.mes, x.tipo, x.item_id;
  INSERT INTO totales_flujo_dia (business_id, fecha, ingresos, egresos)
  SELECT bid, m.fecha,
         coalesce(sum(CASE WHEN m.tipo = 'ingreso' THEN m.monto ELSE -m.monto END) FILTER (WHERE m.tipo = 'ingreso' OR m.origen = 'devolucion'), 0),
         coalesce(sum(m.monto) FILTER (WHERE NOT (m.tipo = 'ingreso' OR m.origen = 'devolucion')), 0)
    FROM finance_movements m
   WHERE m.business_id = bid AND NOT m.anulado
   GROUP BY m.fecha;
END $$;--> statement-breakpoint

-- The totals of a database that had the first version, counted again by the second.
SELECT totales_rehacer(id) FROM businesses WHERE current_setting('mostrador.totales_primera_version') = 'true';
