import { QueryClientProvider, useMutation, useQuery } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { queryClient } from '@/app/query-client';
import { Button } from '@/components/ui/button';
import { Skeleton } from '@/components/ui/misc';
import { api, errorMessage } from '@/lib/api';
import { session } from '@/lib/session';
import { AuthLayout, Notice } from '../auth/auth-layout';

interface Invitation {
  negocio: { id: string; nombre: string };
  email: string;
  rol: 'admin' | 'empleado';
  mensaje: string | null;
  invitado_por: { nombre: string | null };
}

const linkButton =
  'inline-flex h-10 items-center justify-center rounded-lg px-4 text-sm font-medium focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-500/40';

/**
 * The link of an invitation e-mail, /invitacion?token=…: who invites to which business and with
 * what role, before the person logs in. Logged in with the invited e-mail, they accept here;
 * otherwise they log in or sign up with that e-mail (the form comes filled) and come back here.
 */
function InvitationPanel() {
  const token = useSearchParams()[0].get('token') ?? '';
  const here = `/invitacion?token=${encodeURIComponent(token)}`;
  const me = session.token() ? session.user() : null;
  const invitation = useQuery({
    queryKey: ['invitation', token],
    queryFn: () => api.get<Invitation>(`/invitaciones/${encodeURIComponent(token)}`),
    enabled: Boolean(token),
    retry: false,
  });
  const accept = useMutation({
    mutationFn: () => api.post<{ message: string }>(`/invitaciones/${encodeURIComponent(token)}/aceptar`),
  });
  const inv = invitation.data;
  const withEmail = (path: string) =>
    `${path}?next=${encodeURIComponent(here)}${inv ? `&email=${encodeURIComponent(inv.email)}` : ''}`;
  const sameEmail = Boolean(me && inv && me.email.toLowerCase() === inv.email.toLowerCase());

  return (
    <AuthLayout title="Invitación a un negocio">
      {token && invitation.isLoading && <Skeleton className="h-28" />}
      {(!token || invitation.error) && (
        <div className="space-y-4">
          <Notice tone="error">{token ? errorMessage(invitation.error) : 'La invitación no existe o expiró.'}</Notice>
          <p className="text-sm text-slate-600">Pedile a quien te invitó que te mande una invitación nueva.</p>
          <Link to={me ? '/home' : '/login'} className="text-sm font-medium text-blue-600 hover:underline">
            {me ? 'Ir al inicio' : 'Iniciar sesión'}
          </Link>
        </div>
      )}
      {inv && !accept.isSuccess && (
        <div className="space-y-4">
          <p className="text-slate-700">
            <strong>{inv.invitado_por.nombre ?? 'Un administrador'}</strong> te invitó a sumarte a{' '}
            <strong>{inv.negocio.nombre}</strong> como {inv.rol === 'admin' ? 'administrador' : 'empleado'}.
          </p>
          {inv.mensaje && (
            <blockquote className="border-l-4 border-blue-200 pl-3 text-sm text-slate-600">{inv.mensaje}</blockquote>
          )}
          <p className="text-sm text-slate-600">
            La invitación es para <strong className="break-all">{inv.email}</strong>.
          </p>
          {accept.error && <Notice tone="error">{errorMessage(accept.error)}</Notice>}
          {me && sameEmail && (
            <Button className="w-full" onClick={() => accept.mutate()} loading={accept.isPending}>
              Aceptar invitación
            </Button>
          )}
          {me && !sameEmail && (
            <div className="space-y-3">
              <Notice>
                Entraste como <strong className="break-all">{me.email}</strong>. Para aceptarla, iniciá sesión con{' '}
                {inv.email}.
              </Notice>
              <Link
                to={withEmail('/login')}
                className={`${linkButton} w-full bg-blue-600 text-white hover:bg-blue-700`}
              >
                Iniciar sesión con otra cuenta
              </Link>
            </div>
          )}
          {!me && (
            <div className="space-y-3">
              <p className="text-sm text-slate-600">
                Para aceptarla, iniciá sesión con ese e-mail o, si todavía no usás Mostrador, creá tu cuenta.
              </p>
              <div className="grid gap-3 sm:grid-cols-2">
                <Link to={withEmail('/login')} className={`${linkButton} bg-blue-600 text-white hover:bg-blue-700`}>
                  Iniciar sesión
                </Link>
                <Link
                  to={withEmail('/register')}
                  className={`${linkButton} border border-slate-300 bg-white text-slate-700 hover:bg-slate-50`}
                >
                  Crear cuenta
                </Link>
              </div>
            </div>
          )}
        </div>
      )}
      {accept.isSuccess && (
        <div className="flex items-start gap-3">
          <MailCheck className="h-6 w-6 shrink-0 text-emerald-600" aria-hidden />
          <div>
            <p role="status" className="font-medium text-slate-800">
              {accept.data.message}
            </p>
            <p className="mt-1 text-sm text-slate-500">Cuando te aprueben vas a ver el negocio en la barra superior.</p>
            <Link to="/home" className="mt-4 inline-block text-sm font-medium text-blue-600 hover:underline">
              Ir al inicio
            </Link>
          </div>
        </div>
      )}
    </AuthLayout>
  );
}

/** Outside the application's shell: it opens with or without a session. */
export default function AcceptInvitationPage() {
  return (
    <QueryClientProvider client={queryClient}>
      <InvitationPanel />
    </QueryClientProvider>
  );
}
