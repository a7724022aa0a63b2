import {
  centsToDecimal,
  centsToNumber,
  CUSTOMER_MESSAGES,
  effectiveState,
  nextCharge,
  SERVICE_MESSAGES,
  SUBSCRIPTION_MESSAGES,
  subscriptionIssues,
  type Subscription,
  type SubscriptionListQuery,
  type SubscriptionOutput,
  type SubscriptionState,
  type SubscriptionUpdate,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { invalid, notFound } from '../../lib/errors.js';
import { defined } from '../products/common.js';
import {
  deleteSubscriptionRow,
  findSubscriptionRow,
  insertSubscription,
  listSubscriptionRows,
  lockSubscription,
  shareCustomer,
  shareService,
  updateSubscriptionRow,
  type SubscriptionRow as Row,
} from './subscriptions.queries.js';

export function toSubscription(
  r: Row,
  clienteNombre: string | null,
  servicioNombre: string | null,
  today: string,
): Subscription {
  const estado = effectiveState(r.estado, r.fechaFin, today);
  const proximo =
    estado === 'activa'
      ? nextCharge(
          {
            fecha_inicio: r.fechaInicio,
            fecha_fin: r.fechaFin,
            frecuencia: r.frecuencia,
            dia_cobro: r.diaCobro,
            dia_cobro_semanal: r.diaCobroSemanal,
          },
          today,
        )
      : null;
  return {
    id: r.id,
    cliente_id: r.clienteId,
    cliente_nombre: clienteNombre ?? '',
    servicio_id: r.servicioId,
    servicio_nombre: servicioNombre,
    nombre: r.nombre,
    descripcion: r.descripcion,
    precio: Number(r.precio),
    frecuencia: r.frecuencia,
    tipo: r.frecuencia,
    fecha_inicio: r.fechaInicio,
    fecha_fin: r.fechaFin,
    dia_cobro: r.diaCobro,
    dia_cobro_semanal: r.diaCobroSemanal,
    estado,
    proximo_cobro: proximo,
    fecha_proximo_pago: proximo,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

const snapshot = (r: Row) => ({
  cliente_id: r.clienteId,
  servicio_id: r.servicioId,
  nombre: r.nombre,
  descripcion: r.descripcion,
  precio: Number(r.precio),
  frecuencia: r.frecuencia,
  fecha_inicio: r.fechaInicio,
  fecha_fin: r.fechaFin,
  dia_cobro: r.diaCobro,
  dia_cobro_semanal: r.diaCobroSemanal,
  estado: r.estado,
});
type Snapshot = ReturnType<typeof snapshot>;

export async function listSubscriptions(db: Db, businessId: string, q: SubscriptionListQuery, today: string) {
  const { rows, total } = await listSubscriptionRows(businessId, q, today, db);
  return { rows: rows.map((r) => toSubscription(r.s, r.clienteNombre, r.servicioNombre, today)), total };
}

export async function getSubscription(ex: Executor, businessId: string, id: string, today: string) {
  const r = await findSubscriptionRow(businessId, id, ex);
  if (!r) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
  return toSubscription(r.s, r.clienteNombre, r.servicioNombre, today);
}

async function assertCustomer(tx: Executor, businessId: string, id: string) {
  if (!(await shareCustomer(businessId, id, tx))) throw invalid('cliente_id', CUSTOMER_MESSAGES.notInBusiness);
}

async function serviceOf(tx: Executor, businessId: string, id: string) {
  const row = await shareService(businessId, id, tx);
  if (!row) throw invalid('servicio_id', SERVICE_MESSAGES.notInBusiness);
  return row;
}

function firstIssue(s: Parameters<typeof subscriptionIssues>[0]) {
  const [i] = subscriptionIssues(s);
  if (i) throw invalid(i.field, i.message);
}

export async function createSubscription(
  db: Db,
  businessId: string,
  userId: string,
  input: SubscriptionOutput,
  today: string,
) {
  return db.transaction(async (tx) => {
    await assertCustomer(tx, businessId, input.cliente_id);
    const svc = input.servicio_id ? await serviceOf(tx, businessId, input.servicio_id) : null;
    const fechaInicio = input.fecha_inicio ?? today;
    const nombre = input.nombre ?? svc?.nombre ?? null;
    const precio = input.precio ?? (svc ? Math.round(Number(svc.precio) * 100) : null);
    firstIssue({
      servicio_id: input.servicio_id,
      nombre,
      precio,
      fecha_inicio: fechaInicio,
      fecha_fin: input.fecha_fin,
    });
    const row = await insertSubscription(
      businessId,
      {
        clienteId: input.cliente_id,
        servicioId: input.servicio_id ?? null,
        nombre: nombre!.slice(0, 100),
        descripcion: input.descripcion ?? null,
        precio: centsToDecimal(precio!),
        frecuencia: input.frecuencia,
        fechaInicio,
        fechaFin: input.fecha_fin ?? null,
        diaCobro: input.dia_cobro ?? null,
        diaCobroSemanal: input.dia_cobro_semanal ?? null,
        estado: input.estado ?? 'activa',
      },
      tx,
    );
    await audit(tx, {
      businessId,
      userId,
      entidad: 'suscripcion',
      entidadId: row.id,
      accion: 'crear',
      despues: snapshot(row),
    });
    return getSubscription(tx, businessId, row.id, today);
  });
}

async function lock(tx: Executor, businessId: string, id: string) {
  const row = await lockSubscription(businessId, id, tx);
  if (!row) throw notFound(SUBSCRIPTION_MESSAGES.notFound);
  return row;
}

async function write(tx: Executor, businessId: string, userId: string, before: Row, given: Partial<Snapshot>) {
  const changes = diff(snapshot(before), given);
  if (!changes.changed) return;
  const d = changes.despues as Partial<Snapshot>;
  await updateSubscriptionRow(
    businessId,
    before.id,
    {
      clienteId: d.cliente_id,
      servicioId: d.servicio_id,
      nombre: d.nombre,
      descripcion: d.descripcion,
      precio: d.precio === undefined ? undefined : centsToDecimal(Math.round(d.precio * 100)),
      frecuencia: d.frecuencia,
      fechaInicio: d.fecha_inicio,
      fechaFin: d.fecha_fin,
      diaCobro: d.dia_cobro,
      diaCobroSemanal: d.dia_cobro_semanal,
      estado: d.estado,
    },
    tx,
  );
  await audit(tx, {
    businessId,
    userId,
    entidad: 'suscripcion',
    entidadId: before.id,
    accion: 'actualizar',
    antes: changes.antes,
    despues: changes.despues,
  });
}

/** A PUT: the given fields change; the cross-field rules are checked on the merged subscription. */
export async function updateSubscription(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  patch: SubscriptionUpdate,
  today: string,
) {
  return db.transaction(async (tx) => {
    const before = await lock(tx, businessId, id);
    const { precio, ...rest } = defined(patch);
    const given: Partial<Snapshot> = {
      ...(rest as Omit<Partial<Snapshot>, 'precio'>),
      ...(precio !== undefined
        ? { precio: precio === null ? (null as unknown as number) : centsToNumber(precio) }
        : {}),
    };
    if (given.cliente_id && given.cliente_id !== before.clienteId)
      await assertCustomer(tx, businessId, given.cliente_id);
    const servicioId = given.servicio_id !== undefined ? given.servicio_id : before.servicioId;
    if (given.servicio_id && given.servicio_id !== before.servicioId)
      await serviceOf(tx, businessId, given.servicio_id);
    const merged = { ...snapshot(before), ...given };
    if (merged.precio === null && servicioId) {
      // Clearing the price takes the service's again.
      const svc = await serviceOf(tx, businessId, servicioId);
      merged.precio = Number(svc.precio);
      given.precio = merged.precio;
    }
    if (merged.nombre === null && servicioId) {
      const svc = await serviceOf(tx, businessId, servicioId);
      merged.nombre = svc.nombre;
      given.nombre = svc.nombre;
    }
    firstIssue({
      servicio_id: servicioId,
      nombre: merged.nombre,
      precio: merged.precio === null ? null : Math.round(merged.precio * 100),
      fecha_inicio: merged.fecha_inicio,
      fecha_fin: merged.fecha_fin,
    });
    await write(tx, businessId, userId, before, given);
    return getSubscription(tx, businessId, id, today);
  });
}

export async function setState(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  estado: SubscriptionState,
  today: string,
) {
  return db.transaction(async (tx) => {
    const before = await lock(tx, businessId, id);
    await write(tx, businessId, userId, before, { estado });
    return getSubscription(tx, businessId, id, today);
  });
}

export async function deleteSubscription(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    const before = await lock(tx, businessId, id);
    await deleteSubscriptionRow(businessId, id, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'suscripcion',
      entidadId: id,
      accion: 'eliminar',
      antes: snapshot(before),
    });
  });
}
