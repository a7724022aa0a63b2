import { allPermissions, PERMISSION_KEYS, type Modo, type PermissionKey, type PermissionMap } from '@mostrador/shared';
import type { Db } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { planName, planUserLimit } from '../../lib/plan.js';
import { AppError, conflict, invalid, notFound } from '../../lib/errors.js';
import { unassignTasksOf } from '../tasks/tasks.service.js';
import {
  countAccepted,
  deleteMemberRow,
  findMemberRow,
  listAcceptedRows,
  listPendingRows,
  lockBusinessPlan,
  updateMemberRow,
  type MemberRow,
} from './members.queries.js';

export interface PermissionPatch {
  rol?: 'admin' | 'empleado';
  acceso_total?: boolean;
  flags: Partial<PermissionMap>;
  /** Counter controls, beside the 32 flags. */
  ver_costos?: boolean;
  cambiar_precios?: boolean;
  descuento_maximo?: number | null;
  exceder_credito?: boolean;
  cerrar_turno?: boolean;
}

const MSG_DESCUENTO_MAXIMO =
  'El descuento máximo es un porcentaje de 0 a 100, con hasta 2 decimales, o vacío para no limitarlo.';

/** Reads `acceso_total`, `rol` and the 32 flags; a `puede_*` key outside the 32 is refused. */
export function parsePermissionPatch(body: unknown): PermissionPatch {
  if (!body || typeof body !== 'object' || Array.isArray(body)) throw invalid('', 'Debe ser un objeto.');
  const o = body as Record<string, unknown>;
  const flags: Partial<PermissionMap> = {};
  const source = { ...o, ...(o.permisos && typeof o.permisos === 'object' ? (o.permisos as object) : {}) };
  for (const [k, v] of Object.entries(source)) {
    if (!k.startsWith('puede_')) continue;
    if (!(PERMISSION_KEYS as string[]).includes(k)) throw invalid(k, `Permiso desconocido: ${k}.`);
    if (typeof v !== 'boolean') throw invalid(k, 'Debe ser verdadero o falso.');
    flags[k as PermissionKey] = v;
  }
  if (o.acceso_total !== undefined && typeof o.acceso_total !== 'boolean') {
    throw invalid('acceso_total', 'Debe ser verdadero o falso.');
  }
  if (o.rol !== undefined && o.rol !== 'admin' && o.rol !== 'empleado') {
    throw invalid('rol', 'Valor no válido. Opciones: admin, empleado.');
  }
  for (const k of ['ver_costos', 'cambiar_precios', 'exceder_credito', 'cerrar_turno'] as const) {
    if (o[k] !== undefined && typeof o[k] !== 'boolean') throw invalid(k, 'Debe ser verdadero o falso.');
  }
  const d = o.descuento_maximo;
  if (
    d !== undefined &&
    d !== null &&
    (typeof d !== 'number' || !Number.isFinite(d) || d < 0 || d > 100 || Math.round(d * 100) !== d * 100)
  ) {
    throw invalid('descuento_maximo', MSG_DESCUENTO_MAXIMO);
  }
  return {
    rol: o.rol as PermissionPatch['rol'],
    acceso_total: o.acceso_total as boolean | undefined,
    flags,
    ver_costos: o.ver_costos as boolean | undefined,
    cambiar_precios: o.cambiar_precios as boolean | undefined,
    exceder_credito: o.exceder_credito as boolean | undefined,
    cerrar_turno: o.cerrar_turno as boolean | undefined,
    descuento_maximo: d as number | null | undefined,
  };
}

function toMember(r: MemberRow) {
  const m = r.m;
  const full = m.accesoTotal || m.rol === 'admin' || r.creadaPor === m.userId;
  return {
    id: m.id,
    usuario_id: m.userId,
    email: r.email,
    nombre: r.nombre,
    apellido: r.apellido,
    rol: m.rol,
    estado: 'aceptado' as const,
    es_creador: r.creadaPor === m.userId,
    acceso_total: m.accesoTotal,
    permisos: full ? allPermissions(true) : { ...allPermissions(false), ...m.permisos },
    ...counterControls(m, full),
    invitado_por: m.invitadoPor,
    creada_en: m.creadaEn.toISOString(),
    ultimo_acceso: m.ultimoAcceso?.toISOString() ?? null,
  };
}

/** What the member may do at the counter beyond selling; full access may everything. */
export function counterControls(
  m: Pick<MemberRow['m'], 'verCostos' | 'cambiarPrecios' | 'descuentoMaximo' | 'excederCredito' | 'cerrarTurno'>,
  full: boolean,
) {
  return {
    ver_costos: full || m.verCostos,
    cambiar_precios: full || m.cambiarPrecios,
    descuento_maximo: full || m.descuentoMaximo === null ? null : Number(m.descuentoMaximo),
    exceder_credito: full || m.excederCredito,
    cerrar_turno: full || m.cerrarTurno,
  };
}

export async function listMembers(db: Db, businessId: string) {
  const rows = await listAcceptedRows(businessId, db);
  return rows.map(toMember);
}

export async function listPending(db: Db, businessId: string) {
  const rows = await listPendingRows(businessId, db);
  return rows.map((r) => {
    const m = toMember(r);
    return {
      id: m.id,
      usuario_id: m.usuario_id,
      email: m.email,
      nombre: m.nombre,
      apellido: m.apellido,
      rol: m.rol,
      estado: 'pendiente' as const,
      creada_en: m.creada_en,
      invitado_por: m.invitado_por,
      usuario: { id: m.usuario_id, nombre: m.nombre, apellido: m.apellido, email: m.email },
    };
  });
}

export async function updatePermissions(
  db: Db,
  businessId: string,
  actorId: string,
  uid: string,
  patch: PermissionPatch,
) {
  const target = await findMemberRow(businessId, uid, 'aceptado', db);
  if (!target) throw notFound('Usuario no encontrado en este negocio.');
  if (target.creadaPor === target.m.userId) {
    throw new AppError(403, 'FORBIDDEN', 'No se pueden modificar los permisos del creador del negocio.');
  }
  if (target.m.userId === actorId) throw new AppError(403, 'FORBIDDEN', 'No podés modificar tus propios permisos.');
  const permisos = { ...allPermissions(false), ...target.m.permisos, ...patch.flags };
  const next = {
    rol: patch.rol ?? target.m.rol,
    accesoTotal: patch.acceso_total ?? target.m.accesoTotal,
    permisos,
    verCostos: patch.ver_costos ?? target.m.verCostos,
    cambiarPrecios: patch.cambiar_precios ?? target.m.cambiarPrecios,
    excederCredito: patch.exceder_credito ?? target.m.excederCredito,
    cerrarTurno: patch.cerrar_turno ?? target.m.cerrarTurno,
    descuentoMaximo:
      patch.descuento_maximo === undefined
        ? target.m.descuentoMaximo
        : patch.descuento_maximo === null
          ? null
          : String(patch.descuento_maximo),
  };
  const controls = (v: typeof next) => counterControls(v, false);
  return db.transaction(async (tx) => {
    await updateMemberRow(businessId, target.m.id, next, tx);
    await audit(tx, {
      businessId,
      userId: actorId,
      entidad: 'permisos',
      entidadId: target.m.userId,
      accion: 'actualizar',
      antes: {
        rol: target.m.rol,
        acceso_total: target.m.accesoTotal,
        permisos: target.m.permisos,
        ...controls(target.m),
      },
      despues: { rol: next.rol, acceso_total: next.accesoTotal, permisos, ...controls(next) },
    });
    return {
      message: 'Permisos actualizados correctamente',
      usuario_id: target.m.userId,
      rol: next.rol,
      acceso_total: next.accesoTotal,
      permisos,
      ...controls(next),
    };
  });
}

export async function removeMember(db: Db, businessId: string, actorId: string, actorIsAdmin: boolean, uid: string) {
  const target = await findMemberRow(businessId, uid, 'aceptado', db);
  if (!target) throw notFound('Usuario no encontrado en este negocio.');
  const self = target.m.userId === actorId;
  if (!self && !actorIsAdmin) {
    throw new AppError(403, 'ADMIN_REQUIRED', 'Solo un administrador del negocio puede realizar esta acción.');
  }
  if (target.creadaPor === target.m.userId)
    throw new AppError(403, 'FORBIDDEN', 'No se puede quitar al creador del negocio.');
  await db.transaction(async (tx) => {
    await deleteMemberRow(businessId, target.m.id, tx);
    await unassignTasksOf(tx, businessId, target.m.userId);
    await audit(tx, {
      businessId,
      userId: actorId,
      entidad: 'miembro',
      entidadId: target.m.userId,
      accion: 'eliminar',
      antes: { email: target.email, rol: target.m.rol },
    });
  });
}

export async function approvePending(
  db: Db,
  businessId: string,
  actorId: string,
  uid: string,
  patch: PermissionPatch,
  modo: Modo = 'saas',
) {
  const target = await findMemberRow(businessId, uid, 'pendiente', db);
  if (!target) throw notFound('Usuario pendiente no encontrado.');
  const permisos = { ...allPermissions(false), ...patch.flags };
  const rol = patch.rol ?? target.m.rol;
  const accesoTotal = patch.acceso_total ?? false;
  // A new member sells at list prices with no discount and sees no costs unless the approval says so.
  const controls = {
    verCostos: patch.ver_costos ?? false,
    cambiarPrecios: patch.cambiar_precios ?? false,
    excederCredito: patch.exceder_credito ?? false,
    // A cashier closes the turno she opened unless the approval says otherwise.
    cerrarTurno: patch.cerrar_turno ?? true,
    descuentoMaximo:
      patch.descuento_maximo === undefined
        ? '0'
        : patch.descuento_maximo === null
          ? null
          : String(patch.descuento_maximo),
  };
  return db.transaction(async (tx) => {
    // Lock the business row so two approvals cannot both pass the user limit.
    const b = await lockBusinessPlan(businessId, tx);
    const limit = planUserLimit(b.plan, modo);
    if (limit !== null) {
      const n = await countAccepted(businessId, tx);
      if (n >= limit) {
        throw conflict('PLAN_LIMIT', `Alcanzaste el límite de ${limit} usuarios del plan ${planName(b.plan)}.`);
      }
    }
    await updateMemberRow(businessId, target.m.id, { estado: 'aceptado', rol, accesoTotal, permisos, ...controls }, tx);
    await audit(tx, {
      businessId,
      userId: actorId,
      entidad: 'miembro',
      entidadId: target.m.userId,
      accion: 'aprobar',
      antes: { estado: 'pendiente' },
      despues: { estado: 'aceptado', rol, acceso_total: accesoTotal, permisos, ...counterControls(controls, false) },
    });
    return {
      message: 'Usuario aprobado correctamente',
      usuario: { id: target.m.userId, nombre: target.nombre, apellido: target.apellido, email: target.email },
      rol,
      acceso_total: accesoTotal,
      permisos,
    };
  });
}

export async function rejectPending(db: Db, businessId: string, actorId: string, uid: string) {
  const target = await findMemberRow(businessId, uid, 'pendiente', db);
  if (!target) throw notFound('Usuario pendiente no encontrado.');
  await db.transaction(async (tx) => {
    await updateMemberRow(businessId, target.m.id, { estado: 'rechazado' }, tx);
    await audit(tx, {
      businessId,
      userId: actorId,
      entidad: 'miembro',
      entidadId: target.m.userId,
      accion: 'rechazar',
      antes: { estado: 'pendiente' },
      despues: { estado: 'rechazado' },
    });
  });
  return { message: 'Usuario rechazado', usuario_id: target.m.userId };
}
