import { DEPOSITO_MESSAGES, milliToNumber, type Deposito, type ProductStock, type Sucursal } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { toMilli } from '../products/common.js';
import {
  cajaSucursalRows,
  deleteDepositoRows,
  deleteSucursalRow,
  depositoRows,
  insertDeposito,
  insertSucursal,
  lockDepositos,
  lockSucursal,
  productStockRows,
  renameDeposito,
  sucursalExists,
  sucursalRows,
  updateSucursalRow,
} from './depositos.queries.js';

/*
 * Sucursales and depósitos (issue 38 part 1, decision 0059): one catalogue, stock per depósito.
 * Every business has a principal sucursal and depósito, which are never deleted; a sucursal or a
 * depósito with cajas, stock or recorded movements is not deleted either (409).
 */

const toDeposito = (r: Record<string, unknown>): Deposito => ({
  id: r.id as string,
  nombre: r.nombre as string,
  sucursal_id: r.sucursal_id as string,
  sucursal_nombre: r.sucursal_nombre as string,
  principal: r.principal as boolean,
});

export async function listDepositos(db: Db, businessId: string): Promise<Deposito[]> {
  return (await depositoRows(businessId, db)).map(toDeposito);
}

export async function listSucursales(db: Db, businessId: string): Promise<Sucursal[]> {
  const [sucursales, depositos, cajas] = await Promise.all([
    sucursalRows(businessId, db),
    depositoRows(businessId, db),
    cajaSucursalRows(businessId, db),
  ]);
  return sucursales.map((s) => ({
    id: s.id as string,
    nombre: s.nombre as string,
    direccion: (s.direccion as string | null) ?? null,
    principal: s.principal as boolean,
    depositos: depositos
      .filter((d) => d.sucursal_id === s.id)
      .map((d) => ({ id: d.id as string, nombre: d.nombre as string, principal: d.principal as boolean })),
    cajas: cajas.filter((c) => c.sucursal_id === s.id).map((c) => ({ id: c.id as string, nombre: c.nombre as string })),
  }));
}

async function getSucursal(db: Db, businessId: string, id: string): Promise<Sucursal> {
  const s = (await listSucursales(db, businessId)).find((x) => x.id === id);
  if (!s) throw notFound(DEPOSITO_MESSAGES.sucursalNotFound);
  return s;
}

const sucursalTaken = (nombre: string) =>
  new AppError(409, 'DUPLICATE', DEPOSITO_MESSAGES.sucursalRepetida(nombre), { field: 'nombre' });
const depositoTaken = (nombre: string) =>
  new AppError(409, 'DUPLICATE', DEPOSITO_MESSAGES.depositoRepetido(nombre), { field: 'nombre' });

export async function createSucursal(
  db: Db,
  businessId: string,
  userId: string,
  input: { nombre: string; direccion?: string | null },
): Promise<Sucursal> {
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      const sid = await insertSucursal(businessId, { nombre: input.nombre, direccion: input.direccion ?? null }, tx);
      await audit(tx, { businessId, userId, entidad: 'sucursal', entidadId: sid, accion: 'crear', despues: input });
      return sid;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw sucursalTaken(input.nombre);
    throw e;
  }
  return getSucursal(db, businessId, id);
}

export async function updateSucursal(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  input: { nombre?: string; direccion?: string | null },
): Promise<Sucursal> {
  try {
    await db.transaction(async (tx) => {
      if (!(await updateSucursalRow(businessId, id, input, tx))) throw notFound(DEPOSITO_MESSAGES.sucursalNotFound);
      await audit(tx, { businessId, userId, entidad: 'sucursal', entidadId: id, accion: 'actualizar', despues: input });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw sucursalTaken(input.nombre ?? '');
    throw e;
  }
  return getSucursal(db, businessId, id);
}

/** Refuses a depósito that holds stock or that movements or transferencias name. */
function checkDeletable(d: Record<string, unknown>) {
  if (d.principal) throw conflict('INVALID_STATE', DEPOSITO_MESSAGES.depositoPrincipal);
  if (d.con_stock) throw conflict('INVALID_STATE', DEPOSITO_MESSAGES.depositoConStock);
  if (d.con_movimientos) throw conflict('INVALID_STATE', DEPOSITO_MESSAGES.depositoConMovimientos);
}

export async function deleteSucursal(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    const s = await lockSucursal(businessId, id, tx);
    if (!s) throw notFound(DEPOSITO_MESSAGES.sucursalNotFound);
    if (s.principal) throw conflict('INVALID_STATE', DEPOSITO_MESSAGES.sucursalPrincipal);
    if ((s.cajas as number) > 0) throw conflict('INVALID_STATE', DEPOSITO_MESSAGES.sucursalConCajas(s.cajas as number));
    const depositos = await lockDepositos(businessId, { sucursalId: id }, tx);
    if (depositos.some((d) => d.con_stock || d.con_movimientos)) {
      throw conflict('INVALID_STATE', DEPOSITO_MESSAGES.sucursalConDepositos);
    }
    await deleteDepositoRows(
      businessId,
      depositos.map((d) => d.id as string),
      tx,
    );
    await deleteSucursalRow(businessId, id, tx);
    await audit(tx, { businessId, userId, entidad: 'sucursal', entidadId: id, accion: 'eliminar' });
  });
}

export async function createDeposito(
  db: Db,
  businessId: string,
  userId: string,
  input: { nombre: string; sucursal_id: string },
): Promise<Deposito> {
  let id: string;
  try {
    id = await db.transaction(async (tx) => {
      if (!(await sucursalExists(businessId, input.sucursal_id, tx))) {
        throw invalid('sucursal_id', DEPOSITO_MESSAGES.sucursalNotInBusiness);
      }
      const did = await insertDeposito(businessId, { nombre: input.nombre, sucursalId: input.sucursal_id }, tx);
      await audit(tx, { businessId, userId, entidad: 'deposito', entidadId: did, accion: 'crear', despues: input });
      return did;
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw depositoTaken(input.nombre);
    throw e;
  }
  return (await listDepositos(db, businessId)).find((d) => d.id === id)!;
}

export async function updateDeposito(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  input: { nombre: string },
): Promise<Deposito> {
  try {
    await db.transaction(async (tx) => {
      if (!(await renameDeposito(businessId, id, input.nombre, tx))) throw notFound(DEPOSITO_MESSAGES.notFound);
      await audit(tx, { businessId, userId, entidad: 'deposito', entidadId: id, accion: 'actualizar', despues: input });
    });
  } catch (e) {
    if (isUniqueViolation(e)) throw depositoTaken(input.nombre);
    throw e;
  }
  return (await listDepositos(db, businessId)).find((d) => d.id === id)!;
}

export async function deleteDeposito(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    const [d] = await lockDepositos(businessId, { id }, tx);
    if (!d) throw notFound(DEPOSITO_MESSAGES.notFound);
    checkDeletable(d);
    await deleteDepositoRows(businessId, [id], tx);
    await audit(tx, { businessId, userId, entidad: 'deposito', entidadId: id, accion: 'eliminar' });
  });
}

/** GET …/products/{productId}/stock: the product's stock in each depósito (404 for a product not in the business). */
export async function productStock(db: Db, businessId: string, productId: string, notFoundMessage: string) {
  const r = await productStockRows(businessId, productId, db);
  if (!r.length) throw notFound(notFoundMessage);
  return r.map((x): ProductStock[number] => ({
    deposito_id: x.deposito_id as string,
    deposito_nombre: x.deposito_nombre as string,
    sucursal_id: x.sucursal_id as string,
    stock: milliToNumber(toMilli(x.stock as string)),
  }));
}
