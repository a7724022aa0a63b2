// The statements of record-sale (apps/api/src/modules/sales/record-sale.ts), straight through pg:
// the reference of sales-record.mjs and scale-out.mjs, run in the same process and the same run.
import { randomUUID } from 'node:crypto';

/**
 * The statements record-sale runs (record-sale.ts with an Idempotency-Key, three product lines),
 * straight through pg in pipeline mode, in one transaction of two round trips as the API sends
 * them: BEGIN, the key claim and the products locked in id order together; then the one
 * statement that numbers and writes the sale, its lines, stock and movements, with COMMIT.
 */
export async function directSale(client, ctx, items) {
  const key = randomUUID();
  const ids = items.map((i) => i.id).sort();
  const now = new Date();
  const all = (qs) =>
    Promise.allSettled(qs).then((rs) => {
      const bad = rs.find((r) => r.status === 'rejected');
      if (bad) throw bad.reason;
      return rs.map((r) => r.value);
    });
  try {
    const [, , { rows: prods }, { rows: medios }] = await all([
      client.query('BEGIN'),
      client.query(
        `INSERT INTO sale_idempotency_keys (business_id, user_id, clave, hash, status, respuesta, creado_en)
         VALUES ($1, $2, $3, 'x', 0, '{}', $4) ON CONFLICT DO NOTHING RETURNING clave`,
        [ctx.businessId, ctx.userId, key, now],
      ),
      client.query(
        `SELECT id, nombre, precio_venta AS precio, precio_compra AS costo, activo, stock_actual AS stock
           FROM products WHERE business_id = $1 AND id = ANY($2::uuid[]) ORDER BY id FOR UPDATE`,
        [ctx.businessId, ids],
      ),
      client.query(
        `SELECT id, nombre, tipo, ajuste_porcentaje::float8 AS ajuste, activo FROM payment_methods
          WHERE business_id = $1 ORDER BY orden, nombre`,
        [ctx.businessId],
      ),
      client.query(
        `SELECT id, estado, abierto_por FROM turnos WHERE business_id = $1 AND estado = 'abierto'
          ORDER BY abierto_en DESC LIMIT 50 FOR SHARE`,
        [ctx.businessId],
      ),
    ]);
    const cash = medios.find((m) => m.tipo === 'efectivo');
    const byId = new Map(prods.map((p) => [p.id, p]));
    const lines = items.map((it, i) => {
      const p = byId.get(it.id);
      if (Number(p.stock) < it.cantidad) throw new Error('stock insuficiente');
      const precio = Math.round(Number(p.precio) * 100);
      const costo = Math.round(Number(p.costo ?? 0) * 100);
      return {
        ...it,
        posicion: i,
        nombre: p.nombre,
        precio,
        costo,
        subtotal: precio * it.cantidad,
        costoTotal: costo * it.cantidad,
      };
    });
    const total = lines.reduce((s, l) => s + l.subtotal, 0);
    const costo = lines.reduce((s, l) => s + l.costoTotal, 0);
    const money = (c) => (c / 100).toFixed(2);
    const fecha = now.toISOString().slice(0, 10);
    const values = [
      ctx.businessId,
      now,
      money(total),
      money(costo),
      ctx.userId,
      ctx.categoryId,
      fecha,
      JSON.stringify({
        tipo: 'ingreso',
        categoria_id: ctx.categoryId,
        monto: total / 100,
        fecha,
        metodo_pago: 'efectivo',
        observaciones: null,
        cliente_id: null,
      }),
      JSON.stringify({
        total: total / 100,
        descuento: 0,
        metodo_pago: 'efectivo',
        cliente_id: null,
        items: lines.map((l) => ({
          tipo: 'producto',
          id: l.id,
          nombre: l.nombre,
          cantidad: l.cantidad,
          precio_unitario: l.precio / 100,
        })),
      }),
      JSON.stringify({ total: total / 100, fecha: now.toISOString(), mensaje: 'Venta registrada exitosamente' }),
      key,
    ];
    const tuples = lines.map((l) => {
      values.push(
        l.posicion,
        l.id,
        l.nombre,
        `${l.cantidad}.000`,
        money(l.precio),
        money(l.subtotal),
        money(l.costo),
        money(l.costoTotal),
      );
      const o = values.length - 8;
      return `($${o + 1}::int, 'producto', $${o + 2}::uuid, NULL::uuid, $${o + 3}, $${o + 4}::numeric, $${o + 5}::numeric, $${o + 6}::numeric, $${o + 7}::numeric, $${o + 8}::numeric)`;
    });
    const stock = [...lines]
      .sort((a, b) => (a.id < b.id ? -1 : 1))
      .map((l) => {
        values.push(l.id, `${l.cantidad}.000`);
        return `($${values.length - 1}::uuid, $${values.length}::numeric)`;
      });
    await all([
      client.query(
        `WITH n AS (
           INSERT INTO sale_counters AS sc (business_id, ultimo_numero) VALUES ($1, 1)
           ON CONFLICT (business_id) DO UPDATE SET ultimo_numero = sc.ultimo_numero + 1
           RETURNING ultimo_numero AS numero
         ), s AS (
           INSERT INTO sales (business_id, numero, fecha, cliente_id, metodo_pago, subtotal, descuento, total, costo_estimado, observaciones, vendedor_id)
           SELECT $1, n.numero, $2, NULL, 'efectivo', $3, '0.00', $3, $4, NULL, $5 FROM n RETURNING id, numero, fecha
         ), sp AS (
           INSERT INTO sale_payments (business_id, venta_id, posicion, medio_pago_id, metodo_pago, tipo, nombre, monto, ajuste, total, recibido, vuelto)
           SELECT $1, s.id, 0, '${cash.id}'::uuid, 'efectivo', 'efectivo', 'Efectivo', $3, 0, $3, NULL, 0 FROM s
         ), i AS (
           INSERT INTO sale_items (business_id, venta_id, fecha, posicion, tipo, producto_id, servicio_id, nombre, cantidad, precio_unitario, subtotal, costo_unitario, costo_total)
           SELECT $1, s.id, s.fecha, v.* FROM s, (VALUES ${tuples.join(', ')}) AS v
         ), st AS (
           UPDATE products p SET stock_actual = p.stock_actual - v.cantidad, actualizado_en = now()
             FROM (VALUES ${stock.join(', ')}) AS v (producto_id, cantidad)
            WHERE p.business_id = $1 AND p.id = v.producto_id
           RETURNING p.id, p.stock_actual, v.cantidad
         ), sm AS (
           INSERT INTO stock_movements (business_id, producto_id, origen, cantidad, stock_resultante, motivo, referencia_id, usuario_id, deposito_id)
           SELECT $1, st.id, 'venta', -st.cantidad, st.stock_actual, 'Venta #' || s.numero, s.id, $5,
                  (SELECT id FROM depositos WHERE business_id = $1 AND principal) FROM st, s ORDER BY st.id
         ), fm AS (
           INSERT INTO finance_movements (business_id, tipo, categoria_id, monto, fecha, metodo_pago, medio_pago_id, descripcion, observaciones, cliente_id, origen, cuenta_id, venta_id, compra_id, creado_por)
           SELECT $1, 'ingreso', $6::uuid, $3::numeric, $7::date, 'efectivo', '${cash.id}'::uuid, 'Venta #' || s.numero, NULL, NULL, 'venta', NULL, s.id, NULL, $5 FROM s
           RETURNING id, descripcion
         ), fa AS (
           INSERT INTO audit_log (business_id, user_id, entidad, entidad_id, accion, antes, despues)
           SELECT $1, $5, 'movimiento', fm.id, 'crear', NULL, $8::jsonb || jsonb_build_object('descripcion', fm.descripcion) FROM fm
         ), av AS (
           INSERT INTO audit_log (business_id, user_id, entidad, entidad_id, accion, despues)
           SELECT $1, $5, 'venta', s.id, 'crear', jsonb_build_object('numero', s.numero) || $9::jsonb FROM s
         ), k AS (
           UPDATE sale_idempotency_keys k SET status = 201, venta_id = s.id,
                  respuesta = jsonb_build_object('id', s.id, 'numero', s.numero) || $10::jsonb
             FROM s WHERE k.business_id = $1 AND k.user_id = $5 AND k.clave = $11
         )
         SELECT s.id, s.numero FROM s`,
        values,
      ),
      client.query('COMMIT'),
    ]);
  } catch (e) {
    await client.query('ROLLBACK');
    throw e;
  }
}
