-- The report names each medio de pago as the business configured it (issue 33, decision 0050):
-- the daily totals per medio keep, beside the contract's `metodo_pago` code, the medio itself
-- (cuenta corriente and "Otro" share the code `otro`; "Crédito 3 cuotas" and "Tarjeta de Crédito"
-- share `tarjeta_credito`). Payments recorded without a medio keep the zero id. `ventas` counts the
-- sales paid with the medio; `ventas_metodo` counts each sale once per code (on the first of its
-- medios of that code), so the per-code list counts a sale paid with two cards once, as before.
ALTER TABLE "totales_medios_dia" ADD COLUMN "medio_pago_id" uuid DEFAULT '00000000-0000-0000-0000-000000000000' NOT NULL;--> statement-breakpoint
ALTER TABLE "totales_medios_dia" ADD COLUMN "ventas_metodo" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
UPDATE "totales_medios_dia" SET "ventas_metodo" = "ventas";--> statement-breakpoint
ALTER TABLE "totales_medios_dia" DROP CONSTRAINT "totales_medios_dia_pkey";--> statement-breakpoint
ALTER TABLE "totales_medios_dia" ADD CONSTRAINT "totales_medios_dia_pkey" PRIMARY KEY ("business_id", "dia", "metodo_pago", "medio_pago_id");--> statement-breakpoint

CREATE OR REPLACE FUNCTION "totales_venta"(s sales, signo integer) RETURNS void LANGUAGE plpgsql AS $$
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
  INSERT INTO totales_medios_dia AS t (business_id, dia, metodo_pago, medio_pago_id, ventas, ventas_metodo, total, filas)
  SELECT s.business_id, v_dia, p.metodo_pago, coalesce(p.medio_pago_id, '00000000-0000-0000-0000-000000000000'),
         signo,
         CASE WHEN row_number() OVER (PARTITION BY p.metodo_pago ORDER BY coalesce(p.medio_pago_id, '00000000-0000-0000-0000-000000000000')) = 1
              THEN signo ELSE 0 END,
         signo * sum(p.total), signo
    FROM sale_payments p
   WHERE p.business_id = s.business_id AND p.venta_id = s.id
   GROUP BY 3, 4
   ORDER BY 3, 4
  ON CONFLICT (business_id, dia, metodo_pago, medio_pago_id) DO UPDATE
    SET ventas = t.ventas + excluded.ventas, ventas_metodo = t.ventas_metodo + excluded.ventas_metodo,
        total = t.total + excluded.total, filas = t.filas + excluded.filas;
END $$;--> statement-breakpoint

CREATE OR REPLACE FUNCTION "totales_devolucion"(d devoluciones, signo integer) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  v_dia date := (d.fecha AT TIME ZONE totales_zona(d.business_id))::date;
BEGIN
  INSERT INTO totales_ventas_dia AS t (business_id, dia, devuelto) VALUES (d.business_id, v_dia, signo * d.monto)
  ON CONFLICT (business_id, dia) DO UPDATE SET devuelto = t.devuelto + excluded.devuelto;
  INSERT INTO totales_clientes_mes AS t (business_id, mes, cliente_id, total, filas)
  VALUES (d.business_id, date_trunc('month', v_dia)::date,
          coalesce(d.cliente_id, '00000000-0000-0000-0000-000000000000'), -signo * d.monto, signo)
  ON CONFLICT (business_id, mes, cliente_id) DO UPDATE SET total = t.total + excluded.total, filas = t.filas + excluded.filas;
  INSERT INTO totales_medios_dia AS t (business_id, dia, metodo_pago, medio_pago_id, total, filas)
  VALUES (d.business_id, v_dia, d.metodo_pago, d.medio_pago_id, -signo * d.monto, signo)
  ON CONFLICT (business_id, dia, metodo_pago, medio_pago_id) DO UPDATE
    SET total = t.total + excluded.total, filas = t.filas + excluded.filas;
END $$;--> statement-breakpoint

-- The medios' rows of a business counted again from its sales and returns.
CREATE FUNCTION "totales_rehacer_medios"(bid uuid) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  zona text := totales_zona(bid);
BEGIN
  DELETE FROM totales_medios_dia WHERE business_id = bid;
  INSERT INTO totales_medios_dia (business_id, dia, metodo_pago, medio_pago_id, ventas, ventas_metodo, total, filas)
  SELECT bid, x.dia, x.metodo_pago, x.medio_pago_id, sum(x.ventas), sum(x.ventas_metodo), sum(x.total), sum(x.filas)
    FROM (SELECT (s.fecha AT TIME ZONE zona)::date AS dia, p.metodo_pago,
                 coalesce(p.medio_pago_id, '00000000-0000-0000-0000-000000000000') AS medio_pago_id,
                 1 AS ventas,
                 CASE WHEN row_number() OVER (PARTITION BY s.id, p.metodo_pago
                                              ORDER BY coalesce(p.medio_pago_id, '00000000-0000-0000-0000-000000000000')) = 1
                      THEN 1 ELSE 0 END AS ventas_metodo,
                 sum(p.total) AS total, 1 AS filas
            FROM sales s
            JOIN sale_payments p ON p.business_id = s.business_id AND p.venta_id = s.id
           WHERE s.business_id = bid AND s.estado = 'completada'
           GROUP BY s.id, 1, 2, 3
          UNION ALL
          SELECT (d.fecha AT TIME ZONE zona)::date, d.metodo_pago, d.medio_pago_id, 0, 0, -d.monto, 1
            FROM devoluciones d WHERE d.business_id = bid) x
   GROUP BY x.dia, x.metodo_pago, x.medio_pago_id;
END $$;--> statement-breakpoint

-- Every total counted again (a new time zone): the first version's body, then the medios apart.
ALTER FUNCTION "totales_rehacer"(uuid) RENAME TO "totales_rehacer_sin_medios";--> statement-breakpoint
CREATE FUNCTION "totales_rehacer"(bid uuid) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  PERFORM totales_rehacer_sin_medios(bid);
  PERFORM totales_rehacer_medios(bid);
END $$;--> statement-breakpoint

-- The report names a medio as it is called now: a renamed medio makes the totals' version grow
-- (decision 0029), as a renamed customer does.
CREATE CONSTRAINT TRIGGER "payment_methods_totales_nombre" AFTER UPDATE ON "payment_methods" DEFERRABLE INITIALLY DEFERRED FOR EACH ROW
  WHEN (OLD.nombre IS DISTINCT FROM NEW.nombre OR OLD.tipo IS DISTINCT FROM NEW.tipo)
  EXECUTE FUNCTION totales_cliente_cambiado();--> statement-breakpoint

SELECT totales_rehacer_medios(id) FROM businesses;
