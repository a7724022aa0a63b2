import {
  centsToNumber,
  SUPPLIER_MESSAGES,
  type Supplier,
  type SupplierDetail,
  type SupplierListQuery,
  type SupplierOutput,
  type SupplierUpdate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { defined, isFkViolation, toCents } from '../products/common.js';
import {
  deleteSupplierRow,
  findSupplierRow,
  insertSupplier,
  listSupplierRows,
  lockSupplierRow,
  renameSupplierInAccounts,
  shareSupplier,
  supplierPurchases,
  supplierReferences,
  updateSupplierRow,
  type Balance,
  type SupplierColumns,
  type SupplierRow as Row,
} from './suppliers.queries.js';

export function toSupplier(r: Row, b: Balance = { deuda: null, deuda_vencida: null, cuentas_pendientes: 0 }): Supplier {
  return {
    id: r.id,
    nombre: r.nombre,
    cuit: r.cuit,
    cuit_cuil: r.cuit,
    email: r.email,
    telefono: r.telefono,
    direccion: r.direccion,
    ciudad: r.ciudad,
    provincia: r.provincia,
    pais: r.pais,
    contacto: r.contacto,
    condiciones_pago: r.condicionesPago,
    estado: r.estado,
    notas: r.notas,
    observaciones: r.notas,
    deuda: centsToNumber(b.deuda ? toCents(b.deuda) : 0),
    deuda_vencida: centsToNumber(b.deuda_vencida ? toCents(b.deuda_vencida) : 0),
    cuentas_pendientes: b.cuentas_pendientes ?? 0,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

/** What a PUT may change and what the audit records. */
const snapshot = (s: Supplier) => ({
  nombre: s.nombre,
  cuit: s.cuit,
  email: s.email,
  telefono: s.telefono,
  direccion: s.direccion,
  ciudad: s.ciudad,
  provincia: s.provincia,
  pais: s.pais,
  contacto: s.contacto,
  condiciones_pago: s.condiciones_pago,
  estado: s.estado,
  notas: s.notas,
});
type Snapshot = ReturnType<typeof snapshot>;

function columns(s: Partial<Snapshot>): SupplierColumns {
  return {
    nombre: s.nombre,
    cuit: s.cuit,
    email: s.email,
    telefono: s.telefono,
    direccion: s.direccion,
    ciudad: s.ciudad,
    provincia: s.provincia,
    pais: s.pais,
    contacto: s.contacto,
    condicionesPago: s.condiciones_pago,
    estado: s.estado,
    notas: s.notas,
  };
}

/** Sorted (by nombre, the Spanish way, unless asked otherwise), each with what is owed to it. */
export async function listSuppliers(db: Db, businessId: string, q: SupplierListQuery, today: string) {
  const { rows, total } = await listSupplierRows(businessId, q, today, db);
  return { rows: rows.map((r) => toSupplier(r.s, r.b)), total };
}

async function findSupplier(ex: Executor, businessId: string, id: string, today: string) {
  const r = await findSupplierRow(businessId, id, today, ex);
  return r ? toSupplier(r.s, r.b) : null;
}

/** The supplier with what was bought from it (cancelled purchases left out) and what is owed. */
export async function getSupplier(
  ex: Executor,
  businessId: string,
  id: string,
  today: string,
): Promise<SupplierDetail> {
  const s = await findSupplier(ex, businessId, id, today);
  if (!s) throw notFound(SUPPLIER_MESSAGES.notFound);
  const c = await supplierPurchases(businessId, id, ex);
  return {
    ...s,
    compras: {
      cantidad: c.cantidad,
      total: centsToNumber(toCents(c.total)),
      pendientes_recepcion: c.pendientes,
      ultima_fecha: c.ultima,
    },
  };
}

/**
 * The supplier of a purchase or a payable: of the business (a foreign id answers the same as a
 * missing one), locked FOR SHARE so it cannot be deleted before the caller's transaction ends.
 */
export async function lockSupplier(ex: Executor, businessId: string, id: string, field = 'proveedor_id') {
  const row = await shareSupplier(businessId, id, ex);
  if (!row) throw invalid(field, SUPPLIER_MESSAGES.notInBusiness);
  return row;
}

const duplicate = () => conflict('DUPLICATE', SUPPLIER_MESSAGES.duplicate);

export async function createSupplier(db: Db, businessId: string, userId: string, input: SupplierOutput, today: string) {
  const values: Snapshot = {
    nombre: input.nombre,
    cuit: input.cuit ?? null,
    email: input.email ?? null,
    telefono: input.telefono ?? null,
    direccion: input.direccion ?? null,
    ciudad: input.ciudad ?? null,
    provincia: input.provincia ?? null,
    pais: input.pais ?? null,
    contacto: input.contacto ?? null,
    condiciones_pago: input.condiciones_pago ?? null,
    estado: input.estado ?? 'activo',
    notas: input.notas ?? null,
  };
  try {
    return await db.transaction(async (tx) => {
      const row = await insertSupplier(businessId, columns(values), tx);
      const s = toSupplier(row);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'proveedor',
        entidadId: s.id,
        accion: 'crear',
        despues: snapshot(s),
      });
      return (await getSupplier(tx, businessId, s.id, today))!;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'suppliers_cuit_key')) throw duplicate();
    throw e;
  }
}

/**
 * A PUT: the given fields change. A new name reaches the pending payables that carry the
 * supplier (their `proveedor_nombre`), so Cuentas Pendientes shows the current name.
 */
export async function updateSupplier(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  patch: SupplierUpdate,
  today: string,
) {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockSupplierRow(businessId, id, tx);
      if (!before) throw notFound(SUPPLIER_MESSAGES.notFound);
      const old = toSupplier(before);
      const changes = diff(snapshot(old), defined(patch) as Partial<Snapshot>);
      if (changes.changed) {
        await updateSupplierRow(businessId, id, columns(changes.despues as Partial<Snapshot>), tx);
        if ('nombre' in changes.despues) {
          await renameSupplierInAccounts(businessId, id, old.nombre, changes.despues.nombre as string, tx);
        }
        await audit(tx, {
          businessId,
          userId,
          entidad: 'proveedor',
          entidadId: id,
          accion: 'actualizar',
          antes: changes.antes,
          despues: changes.despues,
        });
      }
      return getSupplier(tx, businessId, id, today);
    });
  } catch (e) {
    if (isUniqueViolation(e, 'suppliers_cuit_key')) throw duplicate();
    throw e;
  }
}

/** Refused while purchases or payables reference the supplier (their foreign keys back this up). */
export async function deleteSupplier(db: Db, businessId: string, userId: string, id: string) {
  try {
    await db.transaction(async (tx) => {
      const before = await lockSupplierRow(businessId, id, tx);
      if (!before) throw notFound(SUPPLIER_MESSAGES.notFound);
      const ref = await supplierReferences(businessId, id, tx);
      if (ref?.compras) throw conflict('IN_USE', SUPPLIER_MESSAGES.inUse);
      if (ref?.cuentas) throw conflict('IN_USE', SUPPLIER_MESSAGES.inUseAccounts);
      await deleteSupplierRow(businessId, id, tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'proveedor',
        entidadId: id,
        accion: 'eliminar',
        antes: snapshot(toSupplier(before)),
      });
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isFkViolation(e)) throw conflict('IN_USE', SUPPLIER_MESSAGES.inUse);
    throw e;
  }
}
