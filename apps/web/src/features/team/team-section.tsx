import { Clock, MailPlus, ShieldCheck, Trash2, UserCheck, UserRoundCog, UserX, Users } from 'lucide-react';
import { useState } from 'react';
import {
  allPermissions,
  NEW_MEMBER_CONTROLS,
  MODULE_LABELS,
  ROLE_LABELS,
  visibleModules,
  type Business,
  type Invitation,
  type Member,
  type PendingUser,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { Badge, Card, EmptyState, ErrorNote, Skeleton } from '@/components/ui/misc';
import { canWrite, usePlan } from '@/features/plan/plan.api';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime } from '@/lib/format';
import { session } from '@/lib/session';
import { InvitationLink, InviteDialog } from './invite-dialog';
import { PermissionDialog, type PermissionTarget } from './permission-dialog';
import {
  useApprove,
  useInvitations,
  useMembers,
  usePendingUsers,
  useReject,
  useRemoveMember,
  useRevokeInvitation,
  useUpdatePermissions,
} from './team.api';

const fullName = (p: { nombre: string; apellido: string | null; email: string }) =>
  [p.nombre, p.apellido].filter(Boolean).join(' ') || p.email.split('@')[0];

function Section({ title, count, children }: { title: string; count?: number; children: React.ReactNode }) {
  return (
    <section className="mt-6">
      <h3 className="mb-2 flex items-center gap-2 text-sm font-semibold uppercase tracking-wide text-slate-500">
        {title}
        {count !== undefined && <Badge>{count}</Badge>}
      </h3>
      {children}
    </section>
  );
}

function PermissionSummary({ m }: { m: Member }) {
  if (m.es_creador || m.rol === 'admin' || m.acceso_total) {
    return <span className="text-slate-500">Todos los módulos</span>;
  }
  const mods = visibleModules(m.permisos);
  return (
    <span className="text-slate-500">
      {mods.length ? `Ve: ${mods.map((x) => MODULE_LABELS[x]).join(', ')}` : 'Sin permisos de módulos'}
    </span>
  );
}

/**
 * The team of the selected business, for its administrators: members with their role and
 * permissions, invitations, and pending users to approve or reject. The server protects the
 * creator and one's own permissions; its messages are shown as they come.
 */
export function TeamSection({ business }: { business: Business }) {
  const b = business.id;
  const { formatting } = useBusiness();
  const me = session.user()?.id;
  const members = useMembers(b);
  const pending = usePendingUsers(b);
  const invitations = useInvitations(b);
  const plan = usePlan(b);
  const writable = canWrite(plan.data?.estado);

  const approve = useApprove(b);
  const reject = useReject(b);
  const update = useUpdatePermissions(b);
  const remove = useRemoveMember(b);
  const revoke = useRevokeInvitation(b);

  const [inviting, setInviting] = useState(false);
  const [approving, setApproving] = useState<PermissionTarget | null>(null);
  const [editing, setEditing] = useState<PermissionTarget | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);
  const [rejecting, setRejecting] = useState<PendingUser | null>(null);
  const [revoking, setRevoking] = useState<Invitation | null>(null);

  const open = (invitations.data ?? []).filter((i) => i.estado === 'pendiente');
  const limit = plan.data?.limite_usuarios;

  return (
    <Card className="mt-8">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div>
          <h2 className="flex items-center gap-2 font-semibold text-slate-900">
            <Users className="h-5 w-5 text-blue-600" aria-hidden /> Equipo de {business.nombre}
          </h2>
          <p className="mt-1 text-sm text-slate-500">
            Invitá personas, aprobá su acceso y elegí qué puede hacer cada una.
            {limit != null && plan.data && ` Usuarios activos: ${plan.data.usuarios_activos} de ${limit}.`}
          </p>
        </div>
        <Button onClick={() => setInviting(true)} disabled={!writable} className="shrink-0">
          <MailPlus className="h-4 w-4" aria-hidden /> Invitar
        </Button>
      </div>

      {(pending.data?.length ?? 0) > 0 && (
        <Section title="Pendientes de aprobación" count={pending.data!.length}>
          <ul
            className="divide-y divide-slate-100 rounded-lg border border-amber-200 bg-amber-50/40"
            aria-label="Usuarios pendientes"
          >
            {pending.data!.map((p) => (
              <li key={p.id} className="flex flex-col gap-3 p-3 sm:flex-row sm:items-center">
                <div className="min-w-0 flex-1">
                  <p className="truncate font-medium text-slate-900">{fullName(p)}</p>
                  <p className="truncate text-sm text-slate-500">
                    {p.email} · aceptó el {formatDate(p.creada_en.slice(0, 10), formatting)}
                  </p>
                </div>
                <div className="flex gap-2">
                  <Button
                    size="sm"
                    variant="success"
                    disabled={!writable}
                    aria-label={`Aprobar a ${fullName(p)}`}
                    onClick={() =>
                      setApproving({
                        userId: p.usuario_id,
                        name: fullName(p),
                        email: p.email,
                        rol: p.rol,
                        accesoTotal: false,
                        permisos: allPermissions(false),
                        controles: NEW_MEMBER_CONTROLS,
                      })
                    }
                  >
                    <UserCheck className="h-4 w-4" aria-hidden /> Aprobar
                  </Button>
                  <Button
                    size="sm"
                    variant="secondary"
                    aria-label={`Rechazar a ${fullName(p)}`}
                    onClick={() => setRejecting(p)}
                  >
                    <UserX className="h-4 w-4" aria-hidden /> Rechazar
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        </Section>
      )}

      <Section title="Miembros" count={members.data?.length}>
        {members.error ? (
          <ErrorNote>{errorMessage(members.error, 'No se pudo cargar el equipo.')}</ErrorNote>
        ) : members.isLoading ? (
          <div className="space-y-2">
            <Skeleton className="h-14" />
            <Skeleton className="h-14" />
          </div>
        ) : (
          <ul className="divide-y divide-slate-100" aria-label="Miembros del negocio">
            {(members.data ?? []).map((m) => {
              const protectedRow = m.es_creador || m.usuario_id === me;
              return (
                <li key={m.id} className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center">
                  <div className="min-w-0 flex-1">
                    <div className="flex flex-wrap items-center gap-2">
                      <p className="truncate font-medium text-slate-900">{fullName(m)}</p>
                      {m.usuario_id === me && <span className="text-xs text-slate-400">(vos)</span>}
                      {m.es_creador && <Badge color="purple">Creador</Badge>}
                      <Badge color={m.rol === 'admin' ? 'blue' : 'gray'}>{ROLE_LABELS[m.rol]}</Badge>
                      {m.acceso_total && !m.es_creador && m.rol !== 'admin' && (
                        <Badge color="green">Acceso total</Badge>
                      )}
                    </div>
                    <p className="truncate text-sm text-slate-500">{m.email}</p>
                    <p className="text-xs">
                      <PermissionSummary m={m} />
                      {m.ultimo_acceso && (
                        <span className="text-slate-400">
                          {' '}
                          · último acceso {formatDateTime(m.ultimo_acceso, formatting)}
                        </span>
                      )}
                    </p>
                  </div>
                  {!protectedRow && (
                    <div className="flex gap-1">
                      <Button
                        size="sm"
                        variant="ghost"
                        disabled={!writable}
                        aria-label={`Editar permisos de ${fullName(m)}`}
                        onClick={() =>
                          setEditing({
                            userId: m.usuario_id,
                            name: fullName(m),
                            email: m.email,
                            rol: m.rol,
                            accesoTotal: m.acceso_total,
                            permisos: m.permisos,
                            controles: {
                              ver_costos: m.ver_costos,
                              cambiar_precios: m.cambiar_precios,
                              descuento_maximo: m.descuento_maximo,
                              exceder_credito: m.exceder_credito,
                              cerrar_turno: m.cerrar_turno,
                            },
                          })
                        }
                      >
                        <UserRoundCog className="h-4 w-4" aria-hidden /> Permisos
                      </Button>
                      <Button
                        size="sm"
                        variant="ghost"
                        className="text-red-600 hover:bg-red-50"
                        aria-label={`Quitar a ${fullName(m)}`}
                        onClick={() => setRemoving(m)}
                      >
                        <Trash2 className="h-4 w-4" aria-hidden /> Quitar
                      </Button>
                    </div>
                  )}
                  {m.es_creador && (
                    <span className="inline-flex items-center gap-1 text-xs text-slate-400">
                      <ShieldCheck className="h-4 w-4" aria-hidden /> No se puede quitar ni modificar
                    </span>
                  )}
                </li>
              );
            })}
          </ul>
        )}
      </Section>

      <Section title="Invitaciones abiertas" count={open.length}>
        {invitations.isLoading ? (
          <Skeleton className="h-14" />
        ) : open.length === 0 ? (
          <EmptyState icon={<MailPlus className="h-8 w-8" />} title="No hay invitaciones abiertas">
            Invitá a alguien con su e-mail: te damos un enlace para compartir.
          </EmptyState>
        ) : (
          <ul className="space-y-3" aria-label="Invitaciones abiertas">
            {open.map((i) => (
              <li key={i.id} className="rounded-lg border border-slate-200 p-3">
                <div className="mb-2 flex flex-wrap items-center gap-2">
                  <p className="min-w-0 flex-1 truncate font-medium text-slate-900">{i.email}</p>
                  <Badge color={i.rol === 'admin' ? 'blue' : 'gray'}>{ROLE_LABELS[i.rol]}</Badge>
                  <span className="inline-flex items-center gap-1 text-xs text-slate-500">
                    <Clock className="h-3.5 w-3.5" aria-hidden /> vence {formatDateTime(i.expira_en, formatting)}
                  </span>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-600 hover:bg-red-50"
                    aria-label={`Revocar la invitación de ${i.email}`}
                    onClick={() => setRevoking(i)}
                  >
                    Revocar
                  </Button>
                </div>
                {i.enlace && <InvitationLink url={i.enlace} label={`Enlace para ${i.email}`} />}
              </li>
            ))}
          </ul>
        )}
      </Section>

      <InviteDialog businessId={b} open={inviting} onOpenChange={setInviting} />
      <PermissionDialog
        mode="aprobar"
        target={approving}
        onOpenChange={(o) => !o && setApproving(null)}
        onSave={(payload) => approve.mutateAsync({ userId: approving!.userId, payload })}
      />
      <PermissionDialog
        mode="editar"
        target={editing}
        onOpenChange={(o) => !o && setEditing(null)}
        onSave={(payload) => update.mutateAsync({ userId: editing!.userId, payload })}
      />
      <ConfirmDialog
        open={removing !== null}
        onOpenChange={(o) => !o && setRemoving(null)}
        title="Quitar del equipo"
        confirmLabel="Quitar"
        message={`¿Estás seguro de que querés quitar a ${removing ? fullName(removing) : ''} del negocio? Pierde el acceso de inmediato y sus tareas quedan sin asignar.`}
        onConfirm={async () => {
          try {
            await remove.mutateAsync(removing!.usuario_id);
          } catch (e) {
            throw new Error(errorMessage(e), { cause: e });
          }
        }}
      />
      <ConfirmDialog
        open={rejecting !== null}
        onOpenChange={(o) => !o && setRejecting(null)}
        title="Rechazar solicitud"
        confirmLabel="Rechazar"
        message={`¿Rechazar el acceso de ${rejecting ? fullName(rejecting) : ''}? Podrás volver a invitarlo más adelante.`}
        onConfirm={async () => {
          try {
            await reject.mutateAsync(rejecting!.usuario_id);
          } catch (e) {
            throw new Error(errorMessage(e), { cause: e });
          }
        }}
      />
      <ConfirmDialog
        open={revoking !== null}
        onOpenChange={(o) => !o && setRevoking(null)}
        title="Revocar invitación"
        confirmLabel="Revocar"
        message={`¿Revocar la invitación de ${revoking?.email ?? ''}? El enlace deja de funcionar.`}
        onConfirm={async () => {
          try {
            await revoke.mutateAsync(revoking!.id);
          } catch (e) {
            throw new Error(errorMessage(e), { cause: e });
          }
        }}
      />
    </Card>
  );
}
