import { randomBytes } from 'node:crypto';
import { allPermissions, type InvitationState } from '@mostrador/shared';
import type { AppServices } from '../../app.js';
import type { Db } from '../../db/client.js';
import { enNegocio, todosLosNegocios } from '../../db/tenant.js';
import { isUuid } from '../../lib/access.js';
import { audit } from '../../lib/audit.js';
import { AppError, conflict, notFound } from '../../lib/errors.js';
import {
  businessName,
  insertInvitation,
  insertMembership,
  invitationByToken,
  isMemberByEmail,
  listInvitationRows,
  lockInvitation,
  lockMembershipOf,
  reopenMembership,
  revokeInvitationRow,
  revokePendingTo,
  takeInvitation,
  type InvitationRow,
} from './invitations.queries.js';

const TTL_MS = 7 * 86_400_000;
type Row = InvitationRow;

function estadoOf(r: Row, now: Date): InvitationState {
  return r.estado === 'pendiente' && r.expiraEn <= now ? 'vencida' : (r.estado as InvitationState);
}

function toInvitation(r: Row, svc: AppServices) {
  const estado = estadoOf(r, svc.now());
  return {
    id: r.id,
    email: r.email,
    rol: r.rol,
    estado,
    mensaje: r.mensaje,
    expira_en: r.expiraEn.toISOString(),
    creada_en: r.creadaEn.toISOString(),
    enlace: estado === 'pendiente' ? `${svc.publicUrl}/invitacion?token=${r.token}` : null,
  };
}

export async function invite(
  db: Db,
  svc: AppServices,
  businessId: string,
  actor: { id: string; nombre: string },
  input: { email: string; rol?: 'admin' | 'empleado'; mensaje?: string | null },
) {
  const now = svc.now();
  const member = await isMemberByEmail(businessId, input.email, db);
  if (member) throw conflict('DUPLICATE', 'Esa persona ya es miembro de este negocio.');
  const row = await db.transaction(async (tx) => {
    // A pending invitation to the same e-mail is replaced by the new one.
    await revokePendingTo(businessId, input.email, tx);
    const r = await insertInvitation(
      businessId,
      {
        email: input.email,
        rol: input.rol ?? 'empleado',
        mensaje: input.mensaje ?? null,
        token: randomBytes(24).toString('base64url'),
        invitadoPor: actor.id,
        expiraEn: new Date(now.getTime() + TTL_MS),
        creadaEn: now,
      },
      tx,
    );
    await audit(tx, {
      businessId,
      userId: actor.id,
      entidad: 'invitacion',
      entidadId: r.id,
      accion: 'crear',
      despues: { email: r.email, rol: r.rol },
    });
    return r;
  });
  const b = await businessName(businessId, db);
  const invitacion = toInvitation(row, svc);
  await svc.mailer.send({
    to: row.email,
    subject: `${actor.nombre} te invitó a ${b.nombre} en Mostrador`,
    text:
      `${actor.nombre} te invitó a sumarte al negocio «${b.nombre}» en Mostrador.\n` +
      (row.mensaje ? `\n«${row.mensaje}»\n` : '') +
      `\nPara aceptar, abrí este enlace (vale 7 días):\n${invitacion.enlace}\n\n` +
      'Si todavía no tenés cuenta, registrate con este mismo e-mail y volvé a abrir el enlace.',
  });
  return { message: 'Invitación creada', enviado: svc.mailer.enabled, invitacion };
}

export async function listInvitations(db: Db, svc: AppServices, businessId: string) {
  const rows = await listInvitationRows(businessId, db);
  return rows.map((r) => toInvitation(r, svc));
}

const INVITATION_ACCEPTED = 'La invitación ya fue aceptada. Para quitarle el acceso, elimina a esa persona del equipo.';

export async function revokeInvitation(db: Db, businessId: string, actorId: string, id: string) {
  const missing = () => notFound('Invitación no encontrada.');
  if (!isUuid(id)) throw missing();
  await db.transaction(async (tx) => {
    const found = await lockInvitation(businessId, id, tx);
    if (!found) throw missing();
    // An accepted invitation is history: the access it gave is taken away by removing the member.
    if (found.estado === 'aceptada') throw conflict('INVALID_STATE', INVITATION_ACCEPTED);
    if (found.estado === 'revocada') return;
    const r = await revokeInvitationRow(businessId, id, tx);
    await audit(tx, {
      businessId,
      userId: actorId,
      entidad: 'invitacion',
      entidadId: id,
      accion: 'eliminar',
      antes: { email: r.email },
    });
  });
}

/** An invitation is found by its token alone, whatever its business. */
async function findOpen(db: Db, svc: AppServices, token: string) {
  const [r] = await todosLosNegocios('una invitación por su token', () => invitationByToken(token, db));
  if (!r || estadoOf(r.i, svc.now()) !== 'pendiente') throw notFound('La invitación no existe o expiró.');
  return r;
}

export async function getInvitation(db: Db, svc: AppServices, token: string) {
  const r = await findOpen(db, svc, token);
  return {
    negocio: { id: r.i.businessId, nombre: r.negocio },
    email: r.i.email,
    rol: r.i.rol,
    estado: 'pendiente' as const,
    mensaje: r.i.mensaje,
    expira_en: r.i.expiraEn.toISOString(),
    invitado_por: { nombre: [r.invitador, r.invitadorApellido].filter(Boolean).join(' ') || null },
  };
}

/** Creates the pending membership (or reopens a rejected one); an admin then approves it. */
export async function acceptInvitation(db: Db, svc: AppServices, token: string, user: { id: string; email: string }) {
  const { i } = await findOpen(db, svc, token);
  if (i.email !== user.email.toLowerCase()) {
    throw new AppError(403, 'FORBIDDEN', 'Esta invitación es para otra dirección de e-mail.');
  }
  const now = svc.now();
  return enNegocio(i.businessId, () => acceptIn(db, i, user, now));
}

async function acceptIn(db: Db, i: Row, user: { id: string }, now: Date) {
  return db.transaction(async (tx) => {
    const existing = await lockMembershipOf(i.businessId, user.id, tx);
    if (existing?.estado === 'aceptado') throw conflict('DUPLICATE', 'Ya sos miembro de este negocio.');
    const taken = await takeInvitation(i.businessId, i.id, now, tx);
    if (!taken.length) throw notFound('La invitación no existe o expiró.');
    const values = {
      rol: i.rol,
      estado: 'pendiente' as const,
      invitadoPor: i.invitadoPor,
      accesoTotal: false,
      permisos: allPermissions(false),
    };
    if (existing) await reopenMembership(i.businessId, existing.id, values, tx);
    else await insertMembership(i.businessId, { ...values, userId: user.id, creadaEn: now }, tx);
    await audit(tx, {
      businessId: i.businessId,
      userId: user.id,
      entidad: 'miembro',
      entidadId: user.id,
      accion: 'crear',
      despues: { estado: 'pendiente', rol: i.rol, invitacion: i.id },
    });
    return {
      message: 'Invitación aceptada. Un administrador debe aprobar tu acceso.',
      business_id: i.businessId,
      estado: 'pendiente' as const,
    };
  });
}
