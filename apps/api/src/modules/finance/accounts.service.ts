import {
  accountIssues,
  centsToDecimal,
  centsToNumber,
  FINANCE_MESSAGES,
  formatPesos,
  type Account,
  type AccountListQuery,
  type AccountOutput,
  type AccountType,
  type AccountUpdate,
  type MarkPaidInput,
  type MarkPaidResult,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { daysBetween } from '../../lib/dates.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import {
  accountPurchaseId,
  deleteAccountRow,
  findAccountRow,
  insertAccount,
  linkAccountMovement,
  listAccountRows,
  lockAccountRow,
  lockPurchaseOfAccount,
  payAccount,
  purchasesCategoryId,
  setPurchaseDueDate,
  updateAccountRow,
  type AccountRow as Row,
} from './accounts.queries.js';
import { assertCategory, assertCustomer, defined, supplierName, toCents } from './finance.common.js';
import { insertMovement } from './movements.service.js';

/** `estado` and `dias_vencimiento` are computed against today in the business time zone. */
export function toAccount(r: Row, clienteNombre: string | null, today: string): Account {
  const dias = daysBetween(today, r.fechaVencimiento);
  return {
    id: r.id,
    tipo: r.tipo,
    cliente_id: r.clienteId,
    cliente_nombre: clienteNombre,
    proveedor_id: r.proveedorId,
    proveedor_nombre: r.proveedorNombre,
    monto: centsToNumber(toCents(r.monto)),
    monto_pagado: centsToNumber(toCents(r.montoPagado)),
    saldo_pendiente: centsToNumber(toCents(r.monto) - toCents(r.montoPagado)),
    fecha_emision: r.fechaEmision,
    fecha_vencimiento: r.fechaVencimiento,
    estado: r.estado === 'pagado' ? 'pagado' : dias < 0 ? 'vencido' : 'pendiente',
    dias_vencimiento: dias,
    descripcion: r.descripcion,
    observaciones: r.observaciones,
    compra_id: r.compraId,
    movimiento_id: r.movimientoId,
    fecha_pago: r.fechaPago,
    pagado_en: r.pagadoEn ? r.pagadoEn.toISOString() : null,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

/** What the audit records of an account (and what a PUT may change). */
const snapshot = (a: Account) => ({
  tipo: a.tipo,
  cliente_id: a.cliente_id,
  proveedor_id: a.proveedor_id,
  proveedor_nombre: a.proveedor_nombre,
  monto: a.monto,
  fecha_emision: a.fecha_emision,
  fecha_vencimiento: a.fecha_vencimiento,
  descripcion: a.descripcion,
  observaciones: a.observaciones,
});
type Snapshot = ReturnType<typeof snapshot>;

export async function getAccount(ex: Executor, businessId: string, id: string, today: string): Promise<Account | null> {
  const r = await findAccountRow(businessId, id, ex);
  return r ? toAccount(r.a, r.clienteNombre, today) : null;
}

/** Earliest due date first; `estado` filters on the computed value. */
export async function listAccounts(db: Db, businessId: string, tipo: AccountType, q: AccountListQuery, today: string) {
  const { rows, total } = await listAccountRows(businessId, tipo, q, today, db);
  return { rows: rows.map((r) => toAccount(r.a, r.clienteNombre, today)), total };
}

function assertRules(a: Parameters<typeof accountIssues>[0]) {
  const [first] = accountIssues(a);
  if (first) throw invalid(first.field, first.message);
}

export async function createAccount(db: Db, businessId: string, userId: string, input: AccountOutput, today: string) {
  const fechaEmision = input.fecha_emision ?? today;
  assertRules({ ...input, fecha_emision: fechaEmision });
  return db.transaction(async (tx) => {
    if (input.cliente_id) await assertCustomer(tx, businessId, input.cliente_id);
    let proveedorNombre = input.proveedor_nombre ?? null;
    if (input.proveedor_id) {
      // Always checked (a foreign id is a 422 even with a name given); the name defaults to the supplier's.
      const nombre = await supplierName(tx, businessId, input.proveedor_id);
      proveedorNombre ??= nombre;
    }
    const row = await insertAccount(
      businessId,
      {
        tipo: input.tipo,
        clienteId: input.cliente_id ?? null,
        proveedorId: input.proveedor_id ?? null,
        proveedorNombre,
        monto: centsToDecimal(input.monto),
        fechaEmision,
        fechaVencimiento: input.fecha_vencimiento,
        descripcion: input.descripcion,
        observaciones: input.observaciones ?? null,
        creadoPor: userId,
      },
      tx,
    );
    const created = (await getAccount(tx, businessId, row.id, today))!;
    await audit(tx, {
      businessId,
      userId,
      entidad: 'cuenta',
      entidadId: created.id,
      accion: 'crear',
      despues: snapshot(created),
    });
    return created;
  });
}

async function lockAccount(tx: Executor, businessId: string, id: string) {
  const row = await lockAccountRow(businessId, id, tx);
  if (!row) throw notFound(FINANCE_MESSAGES.accountNotFound);
  return row;
}

const PAID_EDITABLE = new Set<string>(['descripcion', 'observaciones']);
const PURCHASE_EDITABLE = new Set<string>(['fecha_vencimiento', 'descripcion', 'observaciones']);

export async function updateAccount(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  patch: AccountUpdate,
  today: string,
) {
  return db.transaction(async (tx) => {
    // A purchase's payable: the purchase is locked first, in the order the purchases module uses.
    const compraId = await accountPurchaseId(businessId, id, tx);
    if (compraId) await lockPurchaseOfAccount(businessId, compraId, tx);
    const row = await lockAccount(tx, businessId, id);
    const before = (await getAccount(tx, businessId, id, today))!;
    // `estado` is never taken from a body: pendiente and vencido are ignored (pagado is refused by the schema).
    const { monto, estado: _estado, ...rest } = defined(patch);
    const changes = diff<Snapshot>(snapshot(before), {
      ...rest,
      ...(monto !== undefined ? { monto: centsToNumber(monto) } : {}),
    });
    const changedKeys = Object.keys(changes.despues);
    if (row.estado === 'pagado' && changedKeys.some((k) => !PAID_EDITABLE.has(k))) {
      throw conflict('ALREADY_PAID', FINANCE_MESSAGES.alreadyPaidEdit);
    }
    if (row.compraId && changedKeys.some((k) => !PURCHASE_EDITABLE.has(k))) {
      throw conflict('GENERATED_RECORD', FINANCE_MESSAGES.accountFromPurchaseEdit);
    }
    if (!changes.changed) return before;
    if (monto !== undefined && monto < toCents(row.montoPagado)) {
      throw invalid('monto', FINANCE_MESSAGES.amountUnderPaid(formatPesos(toCents(row.montoPagado))));
    }
    const next = { ...snapshot(before), ...changes.despues } as Snapshot;
    assertRules(next);
    if (next.cliente_id && 'cliente_id' in changes.despues) await assertCustomer(tx, businessId, next.cliente_id);
    if (next.proveedor_id && 'proveedor_id' in changes.despues) {
      // Another supplier: its name, unless the body names the account's supplier itself.
      const nombre = await supplierName(tx, businessId, next.proveedor_id);
      if (!rest.proveedor_nombre) next.proveedor_nombre = nombre;
    }
    await updateAccountRow(
      businessId,
      id,
      {
        tipo: next.tipo,
        clienteId: next.cliente_id,
        proveedorId: next.proveedor_id,
        proveedorNombre: next.proveedor_nombre,
        monto: monto !== undefined && 'monto' in changes.despues ? centsToDecimal(monto) : undefined,
        fechaEmision: next.fecha_emision,
        fechaVencimiento: next.fecha_vencimiento,
        descripcion: next.descripcion,
        observaciones: next.observaciones,
      },
      tx,
    );
    // A purchase's payable and the purchase keep one due date.
    if (row.compraId && 'fecha_vencimiento' in changes.despues) {
      await setPurchaseDueDate(businessId, row.compraId, next.fecha_vencimiento, tx);
    }
    await audit(tx, {
      businessId,
      userId,
      entidad: 'cuenta',
      entidadId: id,
      accion: 'actualizar',
      antes: changes.antes,
      despues: changes.despues,
    });
    return (await getAccount(tx, businessId, id, today))!;
  });
}

export async function deleteAccount(db: Db, businessId: string, userId: string, id: string, today: string) {
  await db.transaction(async (tx) => {
    const row = await lockAccount(tx, businessId, id);
    if (row.estado === 'pagado') throw conflict('ALREADY_PAID', FINANCE_MESSAGES.alreadyPaidDelete);
    if (toCents(row.montoPagado) > 0) throw conflict('ALREADY_PAID', FINANCE_MESSAGES.hasPayments);
    if (row.compraId) throw conflict('GENERATED_RECORD', FINANCE_MESSAGES.accountFromPurchaseDelete);
    const before = (await getAccount(tx, businessId, id, today))!;
    await deleteAccountRow(businessId, id, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'cuenta',
      entidadId: id,
      accion: 'eliminar',
      antes: snapshot(before),
    });
  });
}

/**
 * Marks an account paid and records the payment as a movement, all in one transaction. The
 * conditional update (`WHERE estado = 'pendiente'`) makes a second or concurrent call a 409:
 * the losing transaction waits on the row lock, then finds the account already paid.
 */
export async function markPaid(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  input: MarkPaidInput,
  today: string,
  now: Date,
): Promise<MarkPaidResult> {
  return db.transaction(async (tx) => {
    // Locked, so the amount paid is the one stored when the payment commits (a purchase being
    // edited or cancelled holds this row until it is done).
    const acc = await lockAccountRow(businessId, id, tx);
    if (!acc) throw notFound(FINANCE_MESSAGES.accountNotFound);
    if (acc.estado === 'pagado') throw conflict('ALREADY_PAID', FINANCE_MESSAGES.alreadyPaid);

    const tipo = acc.tipo === 'por_cobrar' ? 'ingreso' : 'egreso';
    let categoriaId: string | null = null;
    if (input?.categoria_id) {
      await assertCategory(tx, businessId, input.categoria_id, tipo, { mustBeActive: true });
      categoriaId = input.categoria_id;
    } else if (acc.compraId) {
      categoriaId = await purchasesCategoryId(businessId, tx);
    }
    const fechaPago = input?.fecha_pago ?? today;
    // A payment in parts pays some of what is left; without an amount, all of it.
    const falta = toCents(acc.monto) - toCents(acc.montoPagado);
    const monto = input?.monto ?? falta;
    if (monto > falta) throw invalid('monto', FINANCE_MESSAGES.payOverBalance(formatPesos(falta)));
    const completes = monto === falta;

    const paid = await payAccount(businessId, id, monto, completes ? { fechaPago, pagadoEn: now } : null, tx);
    if (paid.length === 0) {
      const still = await accountPurchaseId(businessId, id, tx);
      if (still === undefined) throw notFound(FINANCE_MESSAGES.accountNotFound);
      throw conflict('ALREADY_PAID', FINANCE_MESSAGES.alreadyPaid);
    }

    const movimiento = await insertMovement(tx, businessId, userId, {
      tipo,
      categoriaId,
      montoCents: monto,
      fecha: fechaPago,
      metodoPago: input?.metodo_pago ?? 'efectivo',
      descripcion: `${tipo === 'ingreso' ? 'Cobro' : 'Pago'}${completes ? '' : ' parcial'}: ${acc.descripcion}`,
      observaciones: input?.observaciones ?? null,
      clienteId: acc.clienteId,
      origen: 'cuenta',
      cuentaId: id,
    });
    await linkAccountMovement(businessId, id, movimiento.id, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'cuenta',
      entidadId: id,
      accion: 'pagar',
      antes: { estado: 'pendiente', monto_pagado: centsToNumber(toCents(acc.montoPagado)) },
      despues: {
        estado: completes ? 'pagado' : 'pendiente',
        monto_pagado: centsToNumber(toCents(acc.montoPagado) + monto),
        fecha_pago: fechaPago,
        movimiento_id: movimiento.id,
      },
    });
    const cuenta = (await getAccount(tx, businessId, id, today))!;
    return { message: completes ? FINANCE_MESSAGES.markedPaid : FINANCE_MESSAGES.partialPaid, cuenta, movimiento };
  });
}
