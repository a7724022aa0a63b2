import { createHash } from 'node:crypto';
import { and, asc, desc, eq, gte, inArray, lt, sql, type SQL } from 'drizzle-orm';
import {
  centsToDecimal,
  centsToNumber,
  IDEMPOTENCY_TTL_MS,
  saleLineCents,
  MAX_MONEY_CENTS,
  milliToDecimal,
  SALE_MESSAGES,
  zonedToInstant,
  type PaymentMethod,
  type RecordSaleOutput,
  type RecordSaleResult,
  type Sale,
  type SaleItem,
  type SaleItemType,
  type SaleListQuery,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import {
  customers,
  financeCategories,
  financeMovements,
  products,
  saleIdempotencyKeys,
  saleItems,
  sales,
  services,
} from '../../db/schema/index.js';
import { audit } from '../../lib/audit.js';
import { addDays, todayIn } from '../../lib/dates.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { toCents, toMilli } from '../products/common.js';
import { applyStockChange, applyStockChanges, type StockChange } from '../products/stock.service.js';

/** Who records the sale, where, and when (the injected clock). */
export interface SaleContext {
  businessId: string;
  userId: string;
  timezone: string;
  now: Date;
}

export interface SaleResponse {
  status: number;
  body: RecordSaleResult;
}

const personName = (nombre: string | null, apellido: string | null) =>
  [nombre, apellido].filter((s) => s && s.trim()).join(' ') || null;

const qtyFormat = new Intl.NumberFormat('es-AR', { maximumFractionDigits: 3 });

/** Instants of [desde 00:00, hasta+1 00:00) in the business time zone. */
export function dayRange(timezone: string, desde?: string, hasta?: string) {
  return {
    from: desde ? zonedToInstant(desde, timezone) : undefined,
    to: hasta ? zonedToInstant(addDays(hasta, 1), timezone) : undefined,
  };
}

/* ---------------------------------------------------------------- reading */

type SaleRow = typeof sales.$inferSelect;
type ItemRow = typeof saleItems.$inferSelect;

function toItem(r: ItemRow): SaleItem {
  return {
    id: r.id,
    tipo: r.tipo,
    producto_id: r.productoId,
    servicio_id: r.servicioId,
    nombre: r.nombre,
    cantidad: Number(r.cantidad),
    precio_unitario: Number(r.precioUnitario),
    subtotal: Number(r.subtotal),
    costo_unitario: Number(r.costoUnitario),
  };
}

interface JoinedSale {
  s: SaleRow;
  clienteNombre: string | null;
  clienteApellido: string | null;
  vendedorNombre: string | null;
  anuladorNombre: string | null;
}

function toSale(r: JoinedSale, items: SaleItem[]): Sale {
  const { s } = r;
  const fecha = s.fecha.toISOString();
  const metodo = s.metodoPago as PaymentMethod;
  return {
    id: s.id,
    numero: s.numero ?? 0,
    fecha,
    fecha_venta: fecha,
    estado: s.estado,
    cliente_id: s.clienteId,
    cliente_nombre: s.clienteId ? personName(r.clienteNombre, r.clienteApellido) : null,
    metodo_pago: metodo,
    medio_pago: metodo,
    subtotal: Number(s.subtotal),
    descuento: Number(s.descuento),
    total: Number(s.total),
    costo_estimado: Number(s.costoEstimado),
    observaciones: s.observaciones,
    vendedor: s.vendedorId ? { id: s.vendedorId, nombre: r.vendedorNombre ?? '' } : null,
    items,
    venta_detalle: items,
    anulada_en: s.anuladaEn ? s.anuladaEn.toISOString() : null,
    anulada_por: s.anuladaPor ? { id: s.anuladaPor, nombre: r.anuladorNombre ?? '' } : null,
    motivo_anulacion: s.motivoAnulacion,
  };
}

const vendedor = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.vendedorId})`;
const anulador = sql<
  string | null
>`(SELECT nullif(concat_ws(' ', u.nombre, u.apellido), '') FROM users u WHERE u.id = ${sales.anuladaPor})`;

function selectSales(ex: Executor) {
  return ex
    .select({
      s: sales,
      clienteNombre: customers.nombre,
      clienteApellido: customers.apellido,
      vendedorNombre: vendedor,
      anuladorNombre: anulador,
    })
    .from(sales)
    .leftJoin(customers, and(eq(customers.businessId, sales.businessId), eq(customers.id, sales.clienteId)));
}

async function itemsOf(ex: Executor, businessId: string, saleIds: string[]): Promise<Map<string, SaleItem[]>> {
  const map = new Map<string, SaleItem[]>();
  if (!saleIds.length) return map;
  const rows = await ex
    .select()
    .from(saleItems)
    .where(and(eq(saleItems.businessId, businessId), inArray(saleItems.ventaId, saleIds)))
    .orderBy(asc(saleItems.ventaId), asc(saleItems.posicion));
  for (const r of rows) {
    const list = map.get(r.ventaId) ?? [];
    list.push(toItem(r));
    map.set(r.ventaId, list);
  }
  return map;
}

export async function getSale(ex: Executor, businessId: string, id: string): Promise<Sale> {
  const [row] = await selectSales(ex).where(and(eq(sales.businessId, businessId), eq(sales.id, id)));
  if (!row) throw notFound(SALE_MESSAGES.notFound);
  const items = await itemsOf(ex, businessId, [id]);
  return toSale(row, items.get(id) ?? []);
}

/** Newest first; `total_ventas` counts every sale matching the filters. */
export async function listSales(db: Db, businessId: string, timezone: string, q: SaleListQuery) {
  const where: SQL[] = [eq(sales.businessId, businessId)];
  const { from, to } = dayRange(timezone, q.fecha_desde, q.fecha_hasta);
  if (from) where.push(gte(sales.fecha, from));
  if (to) where.push(lt(sales.fecha, to));
  if (q.estado) where.push(eq(sales.estado, q.estado));
  if (q.cliente_id) where.push(eq(sales.clienteId, q.cliente_id));
  if (q.metodo_pago) where.push(eq(sales.metodoPago, q.metodo_pago));
  const cond = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    selectSales(db).where(cond).orderBy(desc(sales.fecha), desc(sales.numero)).limit(q.limit).offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(sales)
      .where(cond),
  ]);
  const items = await itemsOf(
    db,
    businessId,
    rows.map((r) => r.s.id),
  );
  return { ventas: rows.map((r) => toSale(r, items.get(r.s.id) ?? [])), total_ventas: total };
}

/* ---------------------------------------------------------------- recording (§6.2) */

interface CatalogueEntry {
  id: string;
  nombre: string;
  precio: number;
  costo: number;
  activo: boolean;
}

async function catalogue(tx: Executor, businessId: string, input: RecordSaleOutput) {
  const ids = (tipo: SaleItemType) => [...new Set(input.items.filter((i) => i.tipo === tipo).map((i) => i.id))];
  const productIds = ids('producto');
  const serviceIds = ids('servicio');
  const [prods, servs] = await Promise.all([
    productIds.length
      ? tx
          .select({
            id: products.id,
            nombre: products.nombre,
            precio: products.precioVenta,
            costo: products.precioCompra,
            activo: products.activo,
          })
          .from(products)
          .where(and(eq(products.businessId, businessId), inArray(products.id, productIds)))
          // Every product line changes its stock: locked now, in ascending id order (no deadlocks
          // between concurrent sales), so the one stock statement later never waits on another sale.
          .orderBy(asc(products.id))
          .for('update')
      : [],
    serviceIds.length
      ? tx
          .select({
            id: services.id,
            nombre: services.nombre,
            precio: services.precio,
            costo: services.costo,
            activo: services.activo,
          })
          .from(services)
          .where(and(eq(services.businessId, businessId), inArray(services.id, serviceIds)))
      : [],
  ]);
  const entry = (r: { id: string; nombre: string; precio: string; costo: string | null; activo: boolean }) =>
    [r.id, { ...r, precio: toCents(r.precio), costo: r.costo === null ? 0 : toCents(r.costo) }] as const;
  return {
    producto: new Map<string, CatalogueEntry>(prods.map(entry)),
    servicio: new Map<string, CatalogueEntry>(servs.map(entry)),
  };
}

interface Line {
  posicion: number;
  tipo: SaleItemType;
  id: string;
  nombre: string;
  cantidad: number;
  precio: number;
  subtotal: number;
  costoUnitario: number;
  costoTotal: number;
}

/** The request body as a stable fingerprint (the business is part of the key's scope already). */
export function requestHash(input: RecordSaleOutput): string {
  const { negocio_id: _ignored, ...rest } = input;
  return createHash('sha256').update(JSON.stringify(rest)).digest('base64url');
}

/** Reused across sales: the system category "Ventas" never changes its id (it cannot be deleted). */
const salesCategoryCache = new Map<string, string | null>();

async function salesCategory(tx: Executor, businessId: string): Promise<string | null> {
  const cached = salesCategoryCache.get(businessId);
  if (cached) return cached;
  const [row] = await tx
    .select({ id: financeCategories.id })
    .from(financeCategories)
    .where(
      and(
        eq(financeCategories.businessId, businessId),
        eq(financeCategories.sistema, true),
        eq(financeCategories.tipo, 'ingreso'),
        sql`lower(${financeCategories.nombre}) = 'ventas'`,
      ),
    )
    .limit(1);
  if (row) {
    if (salesCategoryCache.size > 10_000) salesCategoryCache.clear();
    salesCategoryCache.set(businessId, row.id);
  }
  return row?.id ?? null;
}

const keyOf = (c: SaleContext, clave: string) =>
  and(
    eq(saleIdempotencyKeys.businessId, c.businessId),
    eq(saleIdempotencyKeys.userId, c.userId),
    eq(saleIdempotencyKeys.clave, clave),
  );

/**
 * Claims an Idempotency-Key for this transaction, or answers with the sale it already recorded.
 * The claim is a row insert: a concurrent request with the same key waits on the unique key
 * until this transaction commits (then it finds the answer) or rolls back (then it claims it).
 */
async function claimKey(tx: Executor, c: SaleContext, clave: string, hash: string): Promise<SaleResponse | null> {
  const claimed = await tx
    .insert(saleIdempotencyKeys)
    .values({ businessId: c.businessId, userId: c.userId, clave, hash, status: 0, respuesta: {}, creadoEn: c.now })
    .onConflictDoNothing()
    .returning({ clave: saleIdempotencyKeys.clave });
  if (claimed.length) return null;
  const [prev] = await tx.select().from(saleIdempotencyKeys).where(keyOf(c, clave)).for('update');
  if (prev && prev.status !== 0 && prev.creadoEn.getTime() > c.now.getTime() - IDEMPOTENCY_TTL_MS) {
    if (prev.hash !== hash) {
      throw new AppError(422, 'IDEMPOTENCY_MISMATCH', SALE_MESSAGES.idempotencyMismatch, {
        errors: [{ field: 'Idempotency-Key', message: SALE_MESSAGES.idempotencyMismatch }],
      });
    }
    // jsonb reorders keys: answer with the first response's fields in their usual order.
    const r = prev.respuesta as RecordSaleResult;
    return {
      status: prev.status,
      body: { id: r.id, numero: r.numero, total: r.total, fecha: r.fecha, mensaje: r.mensaje },
    };
  }
  // Older than 24 hours: the key is free again.
  await tx
    .update(saleIdempotencyKeys)
    .set({ hash, status: 0, respuesta: {}, ventaId: null, creadoEn: c.now })
    .where(keyOf(c, clave));
  return null;
}

/**
 * Records a sale in one transaction (API-CONTRACT §6.2): sale and lines, stock decrements in
 * ascending product order with a conditional update, the income movement in "Ventas", the
 * audit row and the idempotency key. Nothing is stored when any part fails.
 *
 * The number comes last: one statement takes it from the per-business counter (whose row lock
 * is held until commit, so numbers never skip) and writes it into the sale, its stock movements,
 * its income movement and the audit rows. Concurrent sales of a business therefore queue on the
 * counter only for that statement and the commit, not for the whole sale.
 */
export async function recordSale(
  db: Db,
  c: SaleContext,
  input: RecordSaleOutput,
  idempotencyKey?: string | null,
): Promise<SaleResponse> {
  const hash = idempotencyKey ? requestHash(input) : null;
  return db.transaction(async (tx) => {
    if (idempotencyKey) {
      const previous = await claimKey(tx, c, idempotencyKey, hash!);
      if (previous) return previous;
    }

    const cat = await catalogue(tx, c.businessId, input);
    const lines: Line[] = input.items.map((item, i) => {
      const found = cat[item.tipo].get(item.id);
      if (!found) {
        throw invalid(
          `items.${i}.id`,
          item.tipo === 'producto' ? SALE_MESSAGES.productNotInBusiness : SALE_MESSAGES.serviceNotInBusiness,
        );
      }
      if (!found.activo) {
        throw invalid(
          `items.${i}.id`,
          item.tipo === 'producto'
            ? SALE_MESSAGES.productInactive(found.nombre)
            : SALE_MESSAGES.serviceInactive(found.nombre),
        );
      }
      const precio = item.precio ?? found.precio;
      const subtotal = saleLineCents(item.cantidad, precio);
      if (subtotal > MAX_MONEY_CENTS) throw invalid(`items.${i}.cantidad`, SALE_MESSAGES.tooMuch);
      return {
        posicion: i,
        tipo: item.tipo,
        id: item.id,
        nombre: found.nombre,
        cantidad: item.cantidad,
        precio,
        subtotal,
        costoUnitario: found.costo,
        costoTotal: saleLineCents(item.cantidad, found.costo),
      };
    });
    const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
    const costo = lines.reduce((s, l) => s + l.costoTotal, 0);
    const descuento = input.descuento ?? 0;
    if (subtotal > MAX_MONEY_CENTS || costo > MAX_MONEY_CENTS) throw invalid('items', SALE_MESSAGES.tooMuch);
    if (descuento > subtotal) throw invalid('descuento', SALE_MESSAGES.discountTooHigh);
    const total = subtotal - descuento;

    if (input.cliente_id) {
      const [cliente] = await tx
        .select({ id: customers.id })
        .from(customers)
        .where(and(eq(customers.businessId, c.businessId), eq(customers.id, input.cliente_id)))
        .for('share');
      if (!cliente) throw invalid('cliente_id', SALE_MESSAGES.customerNotInBusiness);
    }
    const categoriaId = total > 0 ? await salesCategory(tx, c.businessId) : null;

    // The sale, its lines and (with a total) its income movement on the business's calendar day of
    // the sale with the movement's audit row, in one statement (numbered at the end).
    const fechaMovimiento = todayIn(c.timezone, c.now);
    // What insertMovement writes (finance_movements row and its audit row), as CTEs on `s`.
    const incomeMovement = sql`, fm AS (
        INSERT INTO finance_movements (business_id, tipo, categoria_id, monto, fecha, metodo_pago, descripcion,
                                       observaciones, cliente_id, origen, cuenta_id, venta_id, compra_id, creado_por)
        SELECT ${c.businessId}, 'ingreso', ${categoriaId}::uuid, ${centsToDecimal(total)}::numeric,
               ${fechaMovimiento}::date, ${input.metodo_pago}, 'Venta', NULL, ${input.cliente_id ?? null}::uuid, 'venta',
               NULL, s.id, NULL, ${c.userId}
          FROM s
        RETURNING id
      ), fa AS (
        INSERT INTO audit_log (business_id, user_id, entidad, entidad_id, accion, antes, despues)
        SELECT ${c.businessId}, ${c.userId}, 'movimiento', fm.id, 'crear', NULL, ${JSON.stringify({
          tipo: 'ingreso',
          categoria_id: categoriaId,
          monto: centsToNumber(total),
          fecha: fechaMovimiento,
          metodo_pago: input.metodo_pago,
          descripcion: 'Venta',
          observaciones: null,
          cliente_id: input.cliente_id ?? null,
        })}::jsonb
          FROM fm
      )`;
    const values = lines.map(
      (l) => sql`(${l.posicion}::int, ${l.tipo}, ${l.tipo === 'producto' ? l.id : null}::uuid,
        ${l.tipo === 'servicio' ? l.id : null}::uuid, ${l.nombre}, ${milliToDecimal(l.cantidad)}::numeric,
        ${centsToDecimal(l.precio)}::numeric, ${centsToDecimal(l.subtotal)}::numeric,
        ${centsToDecimal(l.costoUnitario)}::numeric, ${centsToDecimal(l.costoTotal)}::numeric)`,
    );
    const {
      rows: [inserted],
    } = await tx.execute<{ id: string; fecha: Date | string; movimiento_id: string | null }>(sql`
      WITH s AS (
        INSERT INTO sales (business_id, fecha, cliente_id, metodo_pago, subtotal, descuento, total, costo_estimado,
                           observaciones, vendedor_id)
        VALUES (${c.businessId}, ${c.now.toISOString()}::timestamptz, ${input.cliente_id ?? null}::uuid,
                ${input.metodo_pago}, ${centsToDecimal(subtotal)}::numeric, ${centsToDecimal(descuento)}::numeric,
                ${centsToDecimal(total)}::numeric, ${centsToDecimal(costo)}::numeric, ${input.observaciones ?? null},
                ${c.userId})
        RETURNING id, fecha
      ), i AS (
        INSERT INTO sale_items (business_id, venta_id, fecha, posicion, tipo, producto_id, servicio_id, nombre, cantidad,
                                precio_unitario, subtotal, costo_unitario, costo_total)
        SELECT ${c.businessId}, s.id, s.fecha, v.*
          FROM s, (VALUES ${sql.join(values, sql`, `)}) AS v
      )${total > 0 ? incomeMovement : sql``}
      SELECT id, fecha, ${total > 0 ? sql`(SELECT id FROM fm)` : sql`NULL::uuid`} AS movimiento_id FROM s`);
    const sale = { id: inserted.id, fecha: new Date(inserted.fecha) };

    // Stock: repeated lines added together, products in ascending id order (no deadlocks).
    const perProduct = new Map<string, number>();
    for (const l of lines) if (l.tipo === 'producto') perProduct.set(l.id, (perProduct.get(l.id) ?? 0) + l.cantidad);
    // All product lines in one statement (rows already locked by the catalogue read; a failure
    // throws and rolls the whole sale back).
    const changes = await applyStockChanges(
      tx,
      [...perProduct.keys()].sort().map((productId): StockChange => ({
        businessId: c.businessId,
        productId,
        cantidad: -perProduct.get(productId)!,
        origen: 'venta',
        motivo: 'Venta',
        referenciaId: sale.id,
        userId: c.userId,
        audit: false,
        insufficientMessage: ({ nombre, disponible }) =>
          SALE_MESSAGES.insufficientStock(nombre, qtyFormat.format(disponible)),
      })),
    );
    const stockMovementIds = changes.map((ch) => ch.movimientoId);

    const body: Omit<RecordSaleResult, 'numero'> = {
      id: sale.id,
      total: centsToNumber(total),
      fecha: sale.fecha.toISOString(),
      mensaje: SALE_MESSAGES.created,
    };
    const auditAfter = {
      total: centsToNumber(total),
      descuento: centsToNumber(descuento),
      metodo_pago: input.metodo_pago,
      cliente_id: input.cliente_id ?? null,
      items: lines.map((l) => ({
        tipo: l.tipo,
        id: l.id,
        nombre: l.nombre,
        cantidad: l.cantidad / 1000,
        precio_unitario: centsToNumber(l.precio),
      })),
    };
    const keyUpdate = idempotencyKey
      ? sql`, k AS (
          UPDATE sale_idempotency_keys k SET status = 201, venta_id = ${sale.id},
                 respuesta = ${JSON.stringify(body)}::jsonb || jsonb_build_object('numero', n.numero)
            FROM n
           WHERE k.business_id = ${c.businessId} AND k.user_id = ${c.userId} AND k.clave = ${idempotencyKey}
          RETURNING 1)`
      : sql``;
    const movementId = inserted.movimiento_id;
    const { rows } = await tx.execute<{ numero: number }>(sql`
      WITH n AS (
        INSERT INTO sale_counters AS sc (business_id, ultimo_numero) VALUES (${c.businessId}, 1)
        ON CONFLICT (business_id) DO UPDATE SET ultimo_numero = sc.ultimo_numero + 1
        RETURNING ultimo_numero AS numero
      ), s AS (
        UPDATE sales SET numero = n.numero FROM n
         WHERE sales.business_id = ${c.businessId} AND sales.id = ${sale.id}
        RETURNING 1
      ), sm AS (
        UPDATE stock_movements m SET motivo = 'Venta #' || n.numero FROM n
         WHERE m.business_id = ${c.businessId} AND m.id = ANY(${`{${stockMovementIds.join(',')}}`}::uuid[])
        RETURNING 1
      ), fm AS (
        UPDATE finance_movements f SET descripcion = 'Venta #' || n.numero FROM n
         WHERE f.business_id = ${c.businessId} AND f.id = ${movementId}::uuid
        RETURNING 1
      ), am AS (
        UPDATE audit_log a SET despues = jsonb_set(a.despues, '{descripcion}', to_jsonb('Venta #' || n.numero)) FROM n
         WHERE a.business_id = ${c.businessId} AND a.fecha = now() AND a.entidad = 'movimiento'
           AND a.entidad_id = ${movementId}::uuid
        RETURNING 1
      ), av AS (
        INSERT INTO audit_log (business_id, user_id, entidad, entidad_id, accion, despues)
        SELECT ${c.businessId}, ${c.userId}, 'venta', ${sale.id},
               'crear', jsonb_build_object('numero', n.numero) || ${JSON.stringify(auditAfter)}::jsonb
          FROM n
        RETURNING 1
      )${keyUpdate}
      SELECT numero FROM n`);
    const numero = rows[0].numero;

    // Expired keys are cleared now and then rather than by a scheduler.
    if (idempotencyKey && Math.random() < 0.01) {
      await tx
        .delete(saleIdempotencyKeys)
        .where(lt(saleIdempotencyKeys.creadoEn, new Date(c.now.getTime() - IDEMPOTENCY_TTL_MS)));
    }
    return { status: 201, body: { id: body.id, numero, total: body.total, fecha: body.fecha, mensaje: body.mensaje } };
  });
}

/* ---------------------------------------------------------------- void (§14.3) */

/**
 * Voids a sale in one transaction: its state, the stock of each product line back (stock
 * movement `Anulación venta #N`), and its income movement marked `anulado` (out of every total).
 */
export async function voidSale(
  db: Db,
  c: SaleContext,
  saleId: string,
  motivo: string | null | undefined,
): Promise<Sale> {
  return db.transaction(async (tx) => {
    const [sale] = await tx
      .select()
      .from(sales)
      .where(and(eq(sales.businessId, c.businessId), eq(sales.id, saleId)))
      .for('update');
    if (!sale) throw notFound(SALE_MESSAGES.notFound);
    if (sale.estado === 'anulada') throw conflict('INVALID_STATE', SALE_MESSAGES.alreadyVoided);

    await tx
      .update(sales)
      .set({ estado: 'anulada', anuladaEn: c.now, anuladaPor: c.userId, motivoAnulacion: motivo ?? null })
      .where(and(eq(sales.businessId, c.businessId), eq(sales.id, saleId)));

    const lines = await tx
      .update(saleItems)
      .set({ anulada: true })
      .where(and(eq(saleItems.businessId, c.businessId), eq(saleItems.ventaId, saleId)))
      .returning({ productoId: saleItems.productoId, cantidad: saleItems.cantidad });
    const perProduct = new Map<string, number>();
    for (const l of lines) {
      if (l.productoId) perProduct.set(l.productoId, (perProduct.get(l.productoId) ?? 0) + toMilli(l.cantidad));
    }
    for (const productId of [...perProduct.keys()].sort()) {
      await applyStockChange(tx, {
        businessId: c.businessId,
        productId,
        cantidad: perProduct.get(productId)!,
        origen: 'anulacion',
        motivo: `Anulación venta #${sale.numero}`,
        referenciaId: saleId,
        userId: c.userId,
        audit: false,
      });
    }

    const voided = await tx
      .update(financeMovements)
      .set({ anulado: true, actualizadoEn: sql`now()` })
      .where(
        and(
          eq(financeMovements.businessId, c.businessId),
          eq(financeMovements.ventaId, saleId),
          eq(financeMovements.anulado, false),
        ),
      )
      .returning({ id: financeMovements.id });
    for (const m of voided) {
      await audit(tx, {
        businessId: c.businessId,
        userId: c.userId,
        entidad: 'movimiento',
        entidadId: m.id,
        accion: 'anular',
        antes: { anulado: false },
        despues: { anulado: true },
      });
    }

    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'venta',
      entidadId: saleId,
      accion: 'anular',
      antes: { estado: 'completada' },
      despues: { estado: 'anulada', motivo_anulacion: motivo ?? null, numero: sale.numero },
    });
    return getSale(tx, c.businessId, saleId);
  });
}
