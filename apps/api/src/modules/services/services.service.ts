import { and, asc, desc, eq, sql, type SQL } from 'drizzle-orm';
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
import { productCategories, services, subscriptions } from '../../db/schema/index.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import { assertCategory } from '../categories/categories.service.js';
import { defined, es, isFkViolation, num, searchFunction, searchTerms } from '../products/common.js';

type Row = typeof services.$inferSelect;

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

function selectServices(ex: Executor) {
  return ex
    .select({ s: services, categoriaNombre: productCategories.nombre })
    .from(services)
    .leftJoin(
      productCategories,
      and(eq(productCategories.businessId, services.businessId), eq(productCategories.id, services.categoriaId)),
    );
}

/** By name the Spanish way unless `orden` asks for the price (ties by name). */
function orderOf(q: ServiceListQuery): SQL[] {
  const dir = q.direccion === 'desc' ? desc : asc;
  const main = q.orden === 'precio' ? [dir(services.precio)] : [];
  return [...main, (q.orden === 'precio' ? asc : dir)(es(services.nombre)), asc(services.id)];
}

/** The search function's condition for the indexable words (migration 0055). */
const serviceSearch = searchFunction('buscar_servicios', services.id);

export async function listServices(db: Db, businessId: string, q: ServiceListQuery) {
  const where: SQL[] = [eq(services.businessId, businessId)];
  if (q.categoria_id) where.push(eq(services.categoriaId, q.categoria_id));
  if (q.activo !== undefined) where.push(eq(services.activo, q.activo));
  where.push(...searchTerms(sql`f_unaccent(lower(${services.nombre}))`, q.q, serviceSearch));
  const cond = and(...where);
  const [rows, [{ total }]] = await Promise.all([
    selectServices(db)
      .where(cond)
      .orderBy(...orderOf(q))
      .limit(q.limit)
      .offset(q.offset),
    db
      .select({ total: sql<number>`count(*)::int` })
      .from(services)
      .where(cond),
  ]);
  return { rows: rows.map((r) => toService(r.s, r.categoriaNombre)), total };
}

export async function findService(ex: Executor, businessId: string, id: string): Promise<Service | null> {
  const [r] = await selectServices(ex).where(and(eq(services.businessId, businessId), eq(services.id, id)));
  return r ? toService(r.s, r.categoriaNombre) : null;
}

export async function getService(ex: Executor, businessId: string, id: string): Promise<Service> {
  const s = await findService(ex, businessId, id);
  if (!s) throw notFound(SERVICE_MESSAGES.notFound);
  return s;
}

const money = (n: number) => centsToDecimal(Math.round(n * 100));

function columns(s: Partial<Snapshot>) {
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
    const [row] = await tx
      .insert(services)
      .values({ businessId, ...columns(values) } as typeof services.$inferInsert)
      .returning({ id: services.id });
    await audit(tx, { businessId, userId, entidad: 'servicio', entidadId: row.id, accion: 'crear', despues: values });
    return getService(tx, businessId, row.id);
  });
}

export async function updateService(db: Db, businessId: string, userId: string, id: string, patch: ServiceUpdate) {
  return db.transaction(async (tx) => {
    const [locked] = await tx
      .select({ id: services.id })
      .from(services)
      .where(and(eq(services.businessId, businessId), eq(services.id, id)))
      .for('update');
    if (!locked) throw notFound(SERVICE_MESSAGES.notFound);
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
    await tx
      .update(services)
      .set({ ...columns(d), actualizadoEn: sql`now()` })
      .where(and(eq(services.businessId, businessId), eq(services.id, id)));
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
      const [locked] = await tx
        .select({ id: services.id })
        .from(services)
        .where(and(eq(services.businessId, businessId), eq(services.id, id)))
        .for('update');
      if (!locked) throw notFound(SERVICE_MESSAGES.notFound);
      const before = (await findService(tx, businessId, id))!;
      const [used] = await tx
        .select({ one: sql`1` })
        .from(subscriptions)
        .where(and(eq(subscriptions.businessId, businessId), eq(subscriptions.servicioId, id)))
        .limit(1);
      if (used) throw inUse();
      await tx.delete(services).where(and(eq(services.businessId, businessId), eq(services.id, id)));
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
