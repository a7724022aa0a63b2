import {
  centsToDecimal,
  centsToNumber,
  FINANCE_MESSAGES,
  type Movement,
  type MovementListQuery,
  type MovementOrigin,
  type MovementOutput,
  type MovementUpdate,
  type PaymentMethod,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { conflict, notFound } from '../../lib/errors.js';
import { movementSnapshot, postMovement, type NewMovement } from '../posting/finance.js';
import { assertCategory, assertCustomer, defined, toCents } from './finance.common.js';
import {
  deleteManualMovement,
  findMovementRow,
  listMovementRows,
  lockMovement,
  updateManualMovement,
  type MovementRow as Row,
} from './movements.queries.js';

export function toMovement(r: Row, categoriaNombre: string | null, clienteNombre: string | null): Movement {
  return {
    id: r.id,
    tipo: r.tipo,
    categoria_id: r.categoriaId,
    categoria_nombre: categoriaNombre,
    monto: centsToNumber(toCents(r.monto)),
    fecha: r.fecha,
    metodo_pago: r.metodoPago as PaymentMethod,
    descripcion: r.descripcion,
    observaciones: r.observaciones,
    cliente_id: r.clienteId,
    cliente_nombre: clienteNombre,
    origen: r.origen,
    venta_id: r.ventaId,
    compra_id: r.compraId,
    cuenta_id: r.cuentaId,
    anulado: r.anulado,
    creado_por: r.creadoPor,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

export async function getMovement(ex: Executor, businessId: string, id: string): Promise<Movement | null> {
  const r = await findMovementRow(businessId, id, ex);
  return r ? toMovement(r.m, r.categoriaNombre, r.clienteNombre) : null;
}

/** Newest date first, then newest created; voided movements only when asked for. */
export async function listMovements(db: Db, businessId: string, q: MovementListQuery) {
  const { rows, total } = await listMovementRows(businessId, q, db);
  return { rows: rows.map((r) => toMovement(r.m, r.categoriaNombre, r.clienteNombre)), total };
}

/**
 * Posts a movement and its audit row inside the caller's transaction (the posting module writes
 * it) and reads it back. Purchases and account payments call this with their own `origen` after
 * checking their own rules.
 */
export async function insertMovement(
  tx: Executor,
  businessId: string,
  userId: string,
  m: NewMovement,
): Promise<Movement> {
  const id = await postMovement(tx, businessId, userId, m);
  return (await getMovement(tx, businessId, id))!;
}

export async function createMovement(db: Db, businessId: string, userId: string, input: MovementOutput, today: string) {
  return db.transaction(async (tx) => {
    if (input.categoria_id) {
      await assertCategory(tx, businessId, input.categoria_id, input.tipo, { mustBeActive: true });
    }
    if (input.cliente_id) await assertCustomer(tx, businessId, input.cliente_id);
    return insertMovement(tx, businessId, userId, {
      tipo: input.tipo,
      categoriaId: input.categoria_id ?? null,
      montoCents: input.monto,
      fecha: input.fecha ?? today,
      metodoPago: input.metodo_pago,
      descripcion: input.descripcion ?? null,
      observaciones: input.observaciones ?? null,
      clienteId: input.cliente_id ?? null,
      origen: 'manual',
    });
  });
}

const GENERATED: Record<Exclude<MovementOrigin, 'manual'>, string> = {
  venta: FINANCE_MESSAGES.movementFromSale,
  compra: FINANCE_MESSAGES.movementFromPurchase,
  cuenta: FINANCE_MESSAGES.movementFromAccount,
  cobro: FINANCE_MESSAGES.movementFromCobro,
  devolucion: FINANCE_MESSAGES.movementFromReturn,
  cheque: FINANCE_MESSAGES.movementFromCheque,
};

/** The stored movement, locked; only manual movements may be changed here. */
async function lockManual(tx: Executor, businessId: string, id: string) {
  const row = await lockMovement(businessId, id, tx);
  if (!row) throw notFound(FINANCE_MESSAGES.movementNotFound);
  if (row.origen !== 'manual')
    throw conflict('GENERATED_RECORD', GENERATED[row.origen as Exclude<MovementOrigin, 'manual'>]);
  return row;
}

export async function updateMovement(db: Db, businessId: string, userId: string, id: string, patch: MovementUpdate) {
  return db.transaction(async (tx) => {
    const row = await lockManual(tx, businessId, id);
    const before = (await getMovement(tx, businessId, id))!;
    const { monto, ...rest } = defined(patch);
    const changes = diff(movementSnapshot(before), {
      ...rest,
      ...(monto !== undefined ? { monto: centsToNumber(monto) } : {}),
    });
    const has = (k: string) => k in changes.despues;

    const tipo = rest.tipo ?? row.tipo;
    const categoriaId = rest.categoria_id !== undefined ? rest.categoria_id : row.categoriaId;
    if (categoriaId && (has('categoria_id') || has('tipo'))) {
      // A category chosen now must be active; the one already set only has to match the new type.
      await assertCategory(tx, businessId, categoriaId, tipo, { mustBeActive: has('categoria_id') });
    }
    if (rest.cliente_id && has('cliente_id')) await assertCustomer(tx, businessId, rest.cliente_id);
    if (!changes.changed) return before;

    const d = changes.despues as Partial<ReturnType<typeof movementSnapshot>>;
    await updateManualMovement(
      businessId,
      id,
      {
        tipo: d.tipo,
        categoriaId: d.categoria_id,
        monto: monto !== undefined && has('monto') ? centsToDecimal(monto) : undefined,
        fecha: d.fecha,
        metodoPago: d.metodo_pago,
        descripcion: d.descripcion,
        observaciones: d.observaciones,
        clienteId: d.cliente_id,
      },
      tx,
    );
    await audit(tx, {
      businessId,
      userId,
      entidad: 'movimiento',
      entidadId: id,
      accion: 'actualizar',
      antes: changes.antes,
      despues: changes.despues,
    });
    return (await getMovement(tx, businessId, id))!;
  });
}

export async function deleteMovement(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    await lockManual(tx, businessId, id);
    const before = (await getMovement(tx, businessId, id))!;
    await deleteManualMovement(businessId, id, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'movimiento',
      entidadId: id,
      accion: 'eliminar',
      antes: movementSnapshot(before),
    });
  });
}
