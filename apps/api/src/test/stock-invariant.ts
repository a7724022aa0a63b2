import type { TestContext } from './app.js';

/**
 * The stock invariant of a business (decision 0059), read as the owner: for every product and
 * depósito, the depósito's stock equals the sum of its movements there; the depósitos add up to
 * products.stock_actual, which equals the sum of all its movements. Answers the rows that break it.
 */
export async function stockInvariantBreaks(ctx: TestContext, businessId: string) {
  return ctx.sql<{ producto_id: string; deposito_id: string | null; problema: string }>(
    `WITH dep AS (
       SELECT p.id AS producto_id, d.id AS deposito_id,
              CASE WHEN d.principal
                   THEN p.stock_actual - coalesce((SELECT sum(o.stock) FROM stock_depositos o
                                                    WHERE o.business_id = p.business_id AND o.producto_id = p.id), 0)
                   ELSE coalesce((SELECT sd.stock FROM stock_depositos sd WHERE sd.business_id = p.business_id
                                   AND sd.deposito_id = d.id AND sd.producto_id = p.id), 0) END AS stock,
              coalesce((SELECT sum(m.cantidad) FROM stock_movements m WHERE m.business_id = p.business_id
                         AND m.producto_id = p.id AND m.deposito_id = d.id), 0) AS movimientos
         FROM products p JOIN depositos d ON d.business_id = p.business_id
        WHERE p.business_id = $1 AND p.controla_stock
     ), tot AS (
       SELECT p.id AS producto_id, p.stock_actual,
              (SELECT coalesce(sum(m.cantidad), 0) FROM stock_movements m
                 WHERE m.business_id = p.business_id AND m.producto_id = p.id) AS movimientos
         FROM products p WHERE p.business_id = $1 AND p.controla_stock
     )
     SELECT producto_id::text, deposito_id::text, 'depósito ' || stock || ' ≠ movimientos ' || movimientos AS problema
       FROM dep WHERE stock <> movimientos
     UNION ALL
     SELECT producto_id::text, NULL, 'total ' || stock_actual || ' ≠ movimientos ' || movimientos
       FROM tot WHERE stock_actual <> movimientos
     UNION ALL
     SELECT producto_id::text, NULL, 'depósitos ' || (SELECT sum(stock) FROM dep WHERE dep.producto_id = tot.producto_id)
            || ' ≠ total ' || stock_actual
       FROM tot WHERE stock_actual <> (SELECT sum(stock) FROM dep WHERE dep.producto_id = tot.producto_id)
     UNION ALL
     SELECT sd.producto_id::text, sd.deposito_id::text, 'el principal tiene filas en stock_depositos'
       FROM stock_depositos sd JOIN depositos d ON d.business_id = sd.business_id AND d.id = sd.deposito_id
      WHERE sd.business_id = $1 AND d.principal`,
    [businessId],
  );
}
