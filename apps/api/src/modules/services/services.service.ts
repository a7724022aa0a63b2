import {
  centsToDecimal,
  centsToNumber,
  SERVICE_MESSAGES,
  type Service,
  type ServiceListQuery,
  type ServiceOutput,
  type ServiceUpdate,
  type IvaRate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { assertCategory } from '../categories/categories.service.js';
import { defined, isFkViolation, num } from '../products/common.js';
import {
  deleteServiceRow,
  findServiceRow,
  insertService,
  listServiceRows,
  lockService,
  serviceHasSubscriptions,
  updateServiceRow,
  type ServiceColumns,
  type ServiceRow as Row,
} from './services.queries.js';

export function toService(r: Row, categoriaNombre: string | null): Service {
  return {
    id: r.id,
    nombre: r.nombre,
    descripcion: r.descripcion,
    precio: Number(r.precio),
    costo: num(r.costo),
    duracion_minutos: r.duracionMinutos,
    categoria_id: r.categoriaId,
    categoria_nombre: categoriaNombre,
    activo: r.activo,
    iva: r.iva as IvaRate,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

const snapshot = (s: Service) => ({
  nombre: s.nombre,
  descripcion: s.descripcion,
  precio: s.precio,
  costo: s.costo,
  duracion_minutos: s.duracion_minutos,
  categoria_id: s.categoria_id,
  activo: s.activo,
  iva: s.iva ?? '21',
});
type Snapshot = ReturnType<typeof snapshot>;

export async function listServices(db: Db, businessId: string, q: ServiceListQuery) {
  const { rows, total } = await listServiceRows(businessId, q, db);
  return { rows: rows.map((r) => toService(r.s, r.categoriaNombre)), total };
}

export async function findService(ex: Executor, businessId: string, id: string): Promise<Service | null> {
  const r = await findServiceRow(businessId, id, ex);
  return r ? toService(r.s, r.categoriaNombre) : null;
}

export async function getService(ex: Executor, businessId: string, id: string): Promise<Service> {
  const s = await findService(ex, businessId, id);
  if (!s) throw notFound(SERVICE_MESSAGES.notFound);
  return s;
}

const money = (n: number) => centsToDecimal(Math.round(n * 100));

function columns(s: Partial<Snapshot>): ServiceColumns {
  return {
    nombre: s.nombre,
    descripcion: s.descripcion,
    precio: s.precio === undefined ? undefined : money(s.precio),
    costo: s.costo === undefined ? undefined : s.costo === null ? null : money(s.costo),
    duracionMinutos: s.duracion_minutos,
    categoriaId: s.categoria_id,
    activo: s.activo,
    iva: s.iva,
  };
}

export async function createService(db: Db, businessId: string, userId: string, input: ServiceOutput) {
  return db.transaction(async (tx) => {
    if (input.categoria_id) await assertCategory(tx, businessId, input.categoria_id);
    const values: Snapshot = {
      nombre: input.nombre,
      descripcion: input.descripcion ?? null,
      precio: centsToNumber(input.precio),
      costo: input.costo === undefined || input.costo === null ? null : centsToNumber(input.costo),
      duracion_minutos: input.duracion_minutos ?? null,
      categoria_id: input.categoria_id ?? null,
      activo: input.activo ?? true,
      iva: input.iva ?? '21',
    };
    const row = await insertService(businessId, columns(values), tx);
    await audit(tx, { businessId, userId, entidad: 'servicio', entidadId: row.id, accion: 'crear', despues: values });
    return getService(tx, businessId, row.id);
  });
}

export async function updateService(db: Db, businessId: string, userId: string, id: string, patch: ServiceUpdate) {
  return db.transaction(async (tx) => {
    if (!(await lockService(businessId, id, tx))) throw notFound(SERVICE_MESSAGES.notFound);
    const before = (await findService(tx, businessId, id))!;
    const { precio, costo, ...rest } = defined(patch);
    const given: Partial<Snapshot> = {
      ...rest,
      ...(precio !== undefined ? { precio: centsToNumber(precio) } : {}),
      ...(costo !== undefined ? { costo: costo === null ? null : centsToNumber(costo) } : {}),
    };
    const changes = diff(snapshot(before), given);
    if (!changes.changed) return before;
    const d = changes.despues as Partial<Snapshot>;
    if (d.categoria_id) await assertCategory(tx, businessId, d.categoria_id);
    await updateServiceRow(businessId, id, columns(d), tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'servicio',
      entidadId: id,
      accion: 'actualizar',
      antes: changes.antes,
      despues: changes.despues,
    });
    return getService(tx, businessId, id);
  });
}

const inUse = () => conflict('IN_USE', SERVICE_MESSAGES.inUse);

/** Refused while subscriptions (or, by their foreign key, sale lines) reference the service. */
export async function deleteService(db: Db, businessId: string, userId: string, id: string) {
  try {
    await db.transaction(async (tx) => {
      if (!(await lockService(businessId, id, tx))) throw notFound(SERVICE_MESSAGES.notFound);
      const before = (await findService(tx, businessId, id))!;
      if (await serviceHasSubscriptions(businessId, id, tx)) throw inUse();
      await deleteServiceRow(businessId, id, tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'servicio',
        entidadId: id,
        accion: 'eliminar',
        antes: snapshot(before),
      });
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isFkViolation(e)) throw inUse();
    throw e;
  }
}
