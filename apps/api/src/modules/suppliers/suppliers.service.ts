import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
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
import { financeAccounts, purchases, suppliers } from '../../db/schema/index.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { defined, es, isFkViolation, searchFunction, searchTerms, toCents } from '../products/common.js';

type Row = typeof suppliers.$inferSelect;

interface Balance {
  deuda: string | null;
  deuda_vencida: string | null;
  cuentas_pendientes: number | null;
}

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

function columns(s: Partial<Snapshot>) {
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

/** Unpaid payables per supplier: the amount, the overdue part and how many (today in the business time zone). */
const balance = (today: string) => sql<Balance>`(
  SELECT json_build_object(
    'deuda', coalesce(sum(a.monto - a.monto_pagado), 0)::text,
    'deuda_vencida', coalesce(sum(a.monto - a.monto_pagado) FILTER (WHERE a.fecha_vencimiento < ${today}::date), 0)::text,
    'cuentas_pendientes', count(*)::int)
    FROM ${financeAccounts} a
   WHERE a.business_id = "suppliers"."business_id" AND a.proveedor_id = "suppliers"."id"
     AND a.tipo = 'por_pagar' AND a.estado = 'pendiente')`;

/** The folded text that the GIN index suppliers_search_idx covers (same expression, so it is used). */
const haystack = sql`f_unaccent(lower(${suppliers.nombre} || ' ' || coalesce(${suppliers.cuit}, '') || ' ' || coalesce(${suppliers.email}, '') || ' ' || coalesce(${suppliers.contacto}, '')))`;

const supplierSearch = searchFunction('buscar_proveedores', suppliers.id);

function filters(businessId: string, q: Pick<SupplierListQuery, 'q' | 'estado'>): SQL[] {
  const where: SQL[] = [eq(suppliers.businessId, businessId)];
  if (q.estado) where.push(eq(suppliers.estado, q.estado));
  const terms = searchTerms(haystack, q.q);
  // A CUIT typed without hyphens still finds the stored XX-XXXXXXXX-X. That alternative is tested
  // on every row of the business anyway, so the words are too; otherwise the index serves them.
  const digits = q.q?.replace(/[\s.-]/g, '') ?? '';
  if (terms.length && /^\d{3,}$/.test(digits)) {
    where.push(sql`(${and(...terms)} OR replace(coalesce(${suppliers.cuit}, ''), '-', '') LIKE ${`%${digits}%`})`);
  } else where.push(...searchTerms(haystack, q.q, supplierSearch));
  return where;
}

/** By name the Spanish way unless `orden` asks for another column (ties by name). */
function orderOf(q: SupplierListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const main =
    q.orden === 'cuit'
      ? [sql`${dir(suppliers.cuit)} NULLS LAST`]
      : q.orden === 'creado_en'
        ? [dir(suppliers.creadoEn)]
        : [];
  return [...main, (!q.orden || q.orden === 'nombre' ? dir : asc)(es(suppliers.nombre)), asc(suppliers.id)];
}

/** Sorted (by nombre, the Spanish way, unless asked otherwise), each with what is owed to it. */
export async function listSuppliers(db: Db, businessId: string, q: SupplierListQuery, today: string) {
  const where = and(...filters(businessId, q));
  const [rows, [{ total }]] = await Promise.all([
    db
      .select({ s: suppliers, b: balance(today) })
      .from(suppliers)
      .where(where)
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(suppliers)
      .where(where),
  ]);
  return { rows: rows.map((r) => toSupplier(r.s, r.b)), total };
}

async function findSupplier(ex: Executor, businessId: string, id: string, today: string) {
  const [r] = await ex
    .select({ s: suppliers, b: balance(today) })
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)));
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
  const [c] = await ex
    .select({
      cantidad: sql<number>`count(*)::int`,
      total: sql<string>`coalesce(sum(${purchases.total}), 0)::text`,
      pendientes: sql<number>`(count(*) FILTER (WHERE ${purchases.estado} IN ('pendiente', 'recibida_parcial')))::int`,
      ultima: sql<string | null>`max(${purchases.fecha})::text`,
    })
    .from(purchases)
    .where(
      and(eq(purchases.businessId, businessId), eq(purchases.proveedorId, id), sql`${purchases.estado} <> 'cancelada'`),
    );
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
  const [row] = await ex
    .select({ id: suppliers.id, nombre: suppliers.nombre })
    .from(suppliers)
    .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)))
    .for('share');
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
      const [row] = await tx
        .insert(suppliers)
        .values({ businessId, ...columns(values) } as typeof suppliers.$inferInsert)
        .returning();
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
      const [before] = await tx
        .select()
        .from(suppliers)
        .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)))
        .for('update');
      if (!before) throw notFound(SUPPLIER_MESSAGES.notFound);
      const old = toSupplier(before);
      const changes = diff(snapshot(old), defined(patch) as Partial<Snapshot>);
      if (changes.changed) {
        await tx
          .update(suppliers)
          .set({ ...columns(changes.despues as Partial<Snapshot>), actualizadoEn: sql`now()` })
          .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)));
        if ('nombre' in changes.despues) {
          await tx
            .update(financeAccounts)
            .set({ proveedorNombre: changes.despues.nombre as string, actualizadoEn: sql`now()` })
            .where(
              and(
                eq(financeAccounts.businessId, businessId),
                eq(financeAccounts.proveedorId, id),
                eq(financeAccounts.proveedorNombre, old.nombre),
              ),
            );
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
      const [before] = await tx
        .select()
        .from(suppliers)
        .where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)))
        .for('update');
      if (!before) throw notFound(SUPPLIER_MESSAGES.notFound);
      const [ref] = await tx
        .execute<{ compras: boolean; cuentas: boolean }>(
          sql`
        SELECT EXISTS (SELECT 1 FROM ${purchases} WHERE business_id = ${businessId} AND proveedor_id = ${id}) AS compras,
               EXISTS (SELECT 1 FROM ${financeAccounts} WHERE business_id = ${businessId} AND proveedor_id = ${id}) AS cuentas`,
        )
        .then((r) => r.rows);
      if (ref?.compras) throw conflict('IN_USE', SUPPLIER_MESSAGES.inUse);
      if (ref?.cuentas) throw conflict('IN_USE', SUPPLIER_MESSAGES.inUseAccounts);
      await tx.delete(suppliers).where(and(eq(suppliers.businessId, businessId), eq(suppliers.id, id)));
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
