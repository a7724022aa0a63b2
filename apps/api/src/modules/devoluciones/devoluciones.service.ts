import { createHash, randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import {
  CAJA_MESSAGES,
  centsToDecimal,
  centsToNumber,
  DEVOLUCION_MESSAGES,
  IDEMPOTENCY_TTL_MS,
  lineShares,
  MEDIO_TIPO_CODE,
  milliToDecimal,
  returnShare,
  SALE_MESSAGES,
  type Devolucion,
  type DevolucionOutput,
  type MedioTipo,
  type PaymentMethod,
  type SaleItemType,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { todayIn } from '../../lib/dates.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { counterTurnoOf, iso, person, rows, type R } from '../caja/rows.js';
import { postMovement } from '../posting/finance.js';
import { applyStockChange } from '../posting/stock.js';
import { toCents, toMilli } from '../products/common.js';

export interface ReturnContext {
  businessId: string;
  userId: string;
  timezone: string;
  now: Date;
}

export interface ReturnResponse {
  status: 201;
  body: Devolucion;
}

const qtyFormat = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 });

/* ---------------------------------------------------------------- reading */

const selectDevolucion = sql`
  SELECT d.id, d.numero, d.fecha, d.venta_id, s.numero AS venta_numero, d.cliente_id,
         nullif(concat_ws(' ', c.nombre, c.apellido), '') AS cliente_nombre, d.medio_pago_id, pm.nombre AS medio_nombre,
         d.tipo, d.metodo_pago, d.monto::text, d.turno_id, d.motivo, d.usuario_id,
         (SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = d.usuario_id) AS usuario_nombre
    FROM devoluciones d
    JOIN sales s ON s.business_id = d.business_id AND s.id = d.venta_id
    JOIN payment_methods pm ON pm.business_id = d.business_id AND pm.id = d.medio_pago_id
    LEFT JOIN customers c ON c.business_id = d.business_id AND c.id = d.cliente_id`;

async function withItems(ex: Executor, businessId: string, list: R[]): Promise<Devolucion[]> {
  if (!list.length) return [];
  const ids = list.map((d) => d.id as string);
  const items = await rows(
    ex,
    sql`SELECT di.devolucion_id, di.venta_item_id, i.tipo, i.producto_id, i.servicio_id, i.nombre, di.cantidad::text,
               i.precio_unitario::text, di.monto::text
          FROM devolucion_items di JOIN sale_items i ON i.business_id = di.business_id AND i.id = di.venta_item_id
         WHERE di.business_id = ${businessId} AND di.devolucion_id = ANY(${`{${ids.join(',')}}`}::uuid[])
         ORDER BY i.posicion`,
  );
  return list.map((d) => ({
    id: d.id as string,
    numero: d.numero as number,
    fecha: iso(d.fecha),
    venta_id: d.venta_id as string,
    venta_numero: d.venta_numero as number,
    cliente_id: (d.cliente_id as string | null) ?? null,
    cliente_nombre: (d.cliente_nombre as string | null) ?? null,
    medio_pago_id: d.medio_pago_id as string,
    medio_nombre: d.medio_nombre as string,
    medio_tipo: d.tipo as MedioTipo,
    metodo_pago: d.metodo_pago as PaymentMethod,
    monto: Number(d.monto),
    turno_id: (d.turno_id as string | null) ?? null,
    motivo: (d.motivo as string | null) ?? null,
    usuario: person(d.usuario_id, d.usuario_nombre),
    items: items
      .filter((i) => i.devolucion_id === d.id)
      .map((i) => ({
        item_id: i.venta_item_id as string,
        tipo: i.tipo as SaleItemType,
        producto_id: (i.producto_id as string | null) ?? null,
        servicio_id: (i.servicio_id as string | null) ?? null,
        nombre: i.nombre as string,
        cantidad: Number(i.cantidad),
        precio_unitario: Number(i.precio_unitario),
        monto: Number(i.monto),
      })),
  }));
}

export async function getDevolucion(ex: Executor, businessId: string, id: string): Promise<Devolucion> {
  const list = await rows(ex, sql`${selectDevolucion} WHERE d.business_id = ${businessId} AND d.id = ${id}`);
  if (!list.length) throw notFound(DEVOLUCION_MESSAGES.notFound);
  return (await withItems(ex, businessId, list))[0];
}

/** The returns of a sale, oldest first (404 when the sale is not the business's). */
export async function listDevoluciones(ex: Executor, businessId: string, ventaId: string): Promise<Devolucion[]> {
  const [sale] = await rows(ex, sql`SELECT id FROM sales WHERE business_id = ${businessId} AND id = ${ventaId}`);
  if (!sale) throw notFound(SALE_MESSAGES.notFound);
  const list = await rows(
    ex,
    sql`${selectDevolucion} WHERE d.business_id = ${businessId} AND d.venta_id = ${ventaId} ORDER BY d.numero`,
  );
  return withItems(ex, businessId, list);
}

/* ---------------------------------------------------------------- idempotency */

// Keys share record-sale's table; the prefix is no printable ASCII, so no sale's key can match it.
const KEY_PREFIX = 'devolución·';

const requestHash = (ventaId: string, input: DevolucionOutput) =>
  createHash('sha256')
    .update(JSON.stringify({ ventaId, ...input }))
    .digest('base64url');

/**
 * Claims the key, or answers what the first request with it answered (a concurrent duplicate
 * waits on the key until that one ends); an answer older than 24 h is taken over.
 */
async function claimKey(ex: Executor, c: ReturnContext, clave: string, hash: string): Promise<ReturnResponse | null> {
  const where = sql`business_id = ${c.businessId} AND user_id = ${c.userId} AND clave = ${clave}`;
  const claimed = await rows(
    ex,
    sql`INSERT INTO sale_idempotency_keys (business_id, user_id, clave, hash, status, respuesta, creado_en)
        VALUES (${c.businessId}, ${c.userId}, ${clave}, ${hash}, 0, '{}', ${c.now.toISOString()}::timestamptz)
        ON CONFLICT DO NOTHING RETURNING clave`,
  );
  if (claimed.length) return null;
  const [prev] = await rows(
    ex,
    sql`SELECT hash, status, respuesta, creado_en FROM sale_idempotency_keys WHERE ${where} FOR UPDATE`,
  );
  if (
    prev &&
    prev.status !== 0 &&
    new Date(prev.creado_en as string).getTime() > c.now.getTime() - IDEMPOTENCY_TTL_MS
  ) {
    if (prev.hash !== hash) {
      throw new AppError(422, 'IDEMPOTENCY_MISMATCH', DEVOLUCION_MESSAGES.idempotencyMismatch, {
        errors: [{ field: 'Idempotency-Key', message: DEVOLUCION_MESSAGES.idempotencyMismatch }],
      });
    }
    return { status: 201, body: prev.respuesta as Devolucion };
  }
  await ex.execute(
    sql`UPDATE sale_idempotency_keys SET hash = ${hash}, status = 0, respuesta = '{}', venta_id = NULL,
               creado_en = ${c.now.toISOString()}::timestamptz WHERE ${where}`,
  );
  return null;
}

/* ---------------------------------------------------------------- returning */

interface Line {
  id: string;
  nombre: string;
  productoId: string | null;
  vendida: number;
  devuelta: number;
  share: number;
  subtotal: number;
  costo: number;
  devuelto: { monto: number; subtotal: number; costo: number };
}

/** The sale's lines with their share of its total and what was returned of each before. */
async function saleLines(ex: Executor, businessId: string, ventaId: string, total: number): Promise<Line[]> {
  const list = await rows(
    ex,
    sql`SELECT i.id, i.nombre, i.producto_id, i.cantidad::text, i.subtotal::text, i.costo_total::text,
               coalesce(sum(di.cantidad), 0)::text AS devuelta, coalesce(sum(di.monto), 0)::text AS monto,
               coalesce(sum(di.subtotal), 0)::text AS dsub, coalesce(sum(di.costo), 0)::text AS dcosto
          FROM sale_items i LEFT JOIN devolucion_items di ON di.business_id = i.business_id AND di.venta_item_id = i.id
         WHERE i.business_id = ${businessId} AND i.venta_id = ${ventaId}
         GROUP BY i.id, i.business_id ORDER BY i.posicion`,
  );
  const shares = lineShares(
    total,
    list.map((l) => toCents(l.subtotal as string)),
  );
  return list.map((l, i) => ({
    id: l.id as string,
    nombre: l.nombre as string,
    productoId: (l.producto_id as string | null) ?? null,
    vendida: toMilli(l.cantidad as string),
    devuelta: toMilli(l.devuelta as string),
    share: shares[i],
    subtotal: toCents(l.subtotal as string),
    costo: toCents(l.costo_total as string),
    devuelto: {
      monto: toCents(l.monto as string),
      subtotal: toCents(l.dsub as string),
      costo: toCents(l.dcosto as string),
    },
  }));
}

/** What each asked line returns: quantity within what is left, and its amounts (422 otherwise). */
function priceReturn(lines: Line[], input: DevolucionOutput) {
  const byId = new Map(lines.map((l) => [l.id, l]));
  const seen = new Set<string>();
  return input.items.map((it, i) => {
    const l = byId.get(it.item_id);
    if (!l) throw invalid(`items.${i}.item_id`, DEVOLUCION_MESSAGES.itemNotInSale);
    if (seen.has(l.id)) throw invalid(`items.${i}.item_id`, DEVOLUCION_MESSAGES.repeatedItem);
    seen.add(l.id);
    const left = l.vendida - l.devuelta;
    if (it.cantidad > left) {
      throw invalid(`items.${i}.cantidad`, DEVOLUCION_MESSAGES.overQuantity(l.nombre, qtyFormat.format(left / 1000)));
    }
    const share = (of: number, before: number) => returnShare(of, l.vendida, l.devuelta, before, it.cantidad);
    return {
      line: l,
      cantidad: it.cantidad,
      monto: share(l.share, l.devuelto.monto),
      subtotal: share(l.subtotal, l.devuelto.subtotal),
      costo: share(l.costo, l.devuelto.costo),
    };
  });
}

/**
 * Returns some or all lines of a completed sale, in one transaction: the sale row is locked, so
 * concurrent returns of it queue and each sees what the others returned (never more than was
 * sold). The stock of product lines comes back, the money goes back by the medio (an egreso
 * movement; cash leaves the turno at the counter) or to the customer's account (what they owe
 * drops), and the "Devolución" takes the business's next number (advisory lock held to commit).
 */
export async function createDevolucion(
  db: Db,
  c: ReturnContext,
  ventaId: string,
  input: DevolucionOutput,
  idempotencyKey: string | null,
): Promise<ReturnResponse> {
  return db.transaction(async (tx) => {
    const clave = idempotencyKey ? `${KEY_PREFIX}${idempotencyKey}` : null;
    if (clave) {
      const previous = await claimKey(tx, c, clave, requestHash(ventaId, input));
      if (previous) return previous;
    }
    const [sale] = await rows(
      tx,
      // Locked as FOR UPDATE would, and marked: the return's nota de crédito (if the sale was
      // invoiced) is reconciled by the sweep should the after-step never run (decision 0013).
      sql`UPDATE sales SET conciliar = true
           WHERE business_id = ${c.businessId} AND id = ${ventaId}
       RETURNING id, numero, estado, cliente_id, total::text`,
    );
    if (!sale) throw notFound(SALE_MESSAGES.notFound);
    if (sale.estado !== 'completada') throw conflict('INVALID_STATE', DEVOLUCION_MESSAGES.saleVoided);
    const lines = await saleLines(tx, c.businessId, ventaId, toCents(sale.total as string));
    const priced = priceReturn(lines, input);
    const [m] = await rows(
      tx,
      sql`SELECT id, nombre, tipo, activo FROM payment_methods WHERE business_id = ${c.businessId} AND id = ${input.medio_pago_id}`,
    );
    if (!m) throw invalid('medio_pago_id', CAJA_MESSAGES.medioNotInBusiness);
    if (!m.activo) throw invalid('medio_pago_id', CAJA_MESSAGES.medioInactive(m.nombre as string));
    const tipo = m.tipo as MedioTipo;
    const clienteId = (sale.cliente_id as string | null) ?? null;
    if (tipo === 'cuenta_corriente' && !clienteId) {
      throw invalid('medio_pago_id', DEVOLUCION_MESSAGES.accountNeedsCustomer);
    }
    const monto = priced.reduce((s, p) => s + p.monto, 0);

    // Numbers one at a time per business, held until commit: consecutive, without gaps.
    await tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('devoluciones:' || ${c.businessId}))`);
    const [{ numero }] = await rows(
      tx,
      sql`SELECT coalesce(max(numero), 0) + 1 AS numero FROM devoluciones WHERE business_id = ${c.businessId}`,
    );
    const id = randomUUID();
    const motivoStock = `Devolución #${numero as number} · venta #${sale.numero as number}`;
    // Products in id order, as sales lock them (no deadlocks with a sale of the same products).
    // Only what the sale took from the stock goes back (a product that did not track stock took none).
    const took = new Set(
      (
        await rows(
          tx,
          sql`SELECT DISTINCT producto_id FROM stock_movements
               WHERE business_id = ${c.businessId} AND referencia_id = ${sale.id as string} AND origen = 'venta'`,
        )
      ).map((r) => r.producto_id as string),
    );
    const perProduct = new Map<string, number>();
    for (const p of priced) {
      const pid = p.line.productoId;
      if (pid && took.has(pid)) perProduct.set(pid, (perProduct.get(pid) ?? 0) + p.cantidad);
    }
    for (const productId of [...perProduct.keys()].sort()) {
      await applyStockChange(tx, {
        businessId: c.businessId,
        productId,
        cantidad: perProduct.get(productId)!,
        origen: 'devolucion',
        motivo: motivoStock,
        referenciaId: id,
        userId: c.userId,
        audit: false,
      });
    }
    // The customer, locked as a sale or a cobro locks it, when what they owe changes.
    if (tipo === 'cuenta_corriente') {
      await tx.execute(
        sql`SELECT 1 FROM customers WHERE business_id = ${c.businessId} AND id = ${clienteId} FOR UPDATE`,
      );
    }
    const turnoId = await counterTurnoOf(tx, c.businessId, c.userId, input.turno_id);
    const metodo = MEDIO_TIPO_CODE[tipo];
    await tx.execute(
      sql`INSERT INTO devoluciones (id, business_id, numero, venta_id, fecha, monto, medio_pago_id, metodo_pago, tipo, cliente_id,
                                    turno_id, motivo, usuario_id)
          VALUES (${id}, ${c.businessId}, ${numero as number}, ${ventaId}, ${c.now.toISOString()}::timestamptz,
                  ${centsToDecimal(monto)}::numeric, ${m.id as string}, ${metodo}, ${tipo}, ${clienteId}::uuid, ${turnoId}::uuid,
                  ${input.motivo ?? null}, ${c.userId})`,
    );
    await tx.execute(
      sql`INSERT INTO devolucion_items (business_id, devolucion_id, venta_item_id, cantidad, monto, subtotal, costo)
          VALUES ${sql.join(
            priced.map(
              (p) => sql`(${c.businessId}, ${id}, ${p.line.id}, ${milliToDecimal(p.cantidad)}::numeric,
                          ${centsToDecimal(p.monto)}::numeric, ${centsToDecimal(p.subtotal)}::numeric,
                          ${centsToDecimal(p.costo)}::numeric)`,
            ),
            sql`, `,
          )}`,
    );
    // Money back by a medio is an egreso of the sale's income; to the account it is no money.
    if (tipo !== 'cuenta_corriente' && monto > 0) {
      const fecha = todayIn(c.timezone, c.now);
      const descripcion = `Devolución #${numero as number} · venta #${sale.numero as number}`;
      await postMovement(tx, c.businessId, c.userId, {
        tipo: 'egreso',
        categoriaId: null,
        montoCents: monto,
        fecha,
        metodoPago: metodo,
        medioPagoId: m.id as string,
        descripcion,
        observaciones: null,
        clienteId,
        origen: 'devolucion',
        ventaId,
        devolucionId: id,
      });
    }
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'devolucion',
      entidadId: id,
      accion: 'crear',
      despues: {
        numero,
        venta_id: ventaId,
        venta_numero: sale.numero,
        monto: centsToNumber(monto),
        medio: m.nombre,
        turno_id: turnoId,
        motivo: input.motivo ?? null,
        items: priced.map((p) => ({ item_id: p.line.id, cantidad: p.cantidad / 1000, monto: centsToNumber(p.monto) })),
      },
    });
    const body = await getDevolucion(tx, c.businessId, id);
    if (clave) {
      await tx.execute(
        sql`UPDATE sale_idempotency_keys SET status = 201, respuesta = ${JSON.stringify(body)}::jsonb
             WHERE business_id = ${c.businessId} AND user_id = ${c.userId} AND clave = ${clave}`,
      );
    }
    return { status: 201, body };
  });
}
