import { useMutation, useQuery } from '@tanstack/react-query';
import { MailCheck } from 'lucide-react';
import { Link, useSearchParams } from 'react-router';
import { Button } from '@/components/ui/button';
import { Card, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { api, errorMessage } from '@/lib/api';

interface Invitation {
  negocio: { id: string; nombre: string };
  email: string;
  rol: 'admin' | 'empleado';
  mensaje: string | null;
  invitado_por: { nombre: string | null };
}

/** Opens the link of an invitation e-mail: /invitacion?token=… (the user is logged in). */
export default function AcceptInvitationPage() {
  const token = useSearchParams()[0].get('token') ?? '';
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
  return (
    <div className="max-w-xl">
      <PageHeader title="Invitación a un negocio" />
      <Card>
        {invitation.isLoading && <Skeleton className="h-24" />}
        {(!token || invitation.error) && (
          <ErrorNote>{token ? errorMessage(invitation.error) : 'La invitación no existe o expiró.'}</ErrorNote>
        )}
        {inv && !accept.isSuccess && (
          <div className="space-y-4">
            <p className="text-slate-700">
              {inv.invitado_por.nombre ?? 'Un administrador'} te invitó a sumarte a{' '}
              <strong>{inv.negocio.nombre}</strong> como {inv.rol === 'admin' ? 'administrador' : 'empleado'}.
            </p>
            {inv.mensaje && (
              <blockquote className="border-l-4 border-blue-200 pl-3 text-sm text-slate-600">{inv.mensaje}</blockquote>
            )}
            {accept.error && <ErrorNote>{errorMessage(accept.error)}</ErrorNote>}
            <Button onClick={() => accept.mutate()} loading={accept.isPending}>
              Aceptar invitación
            </Button>
          </div>
        )}
        {accept.isSuccess && (
          <div className="flex items-start gap-3">
            <MailCheck className="h-6 w-6 shrink-0 text-emerald-600" aria-hidden />
            <div>
              <p role="status" className="font-medium text-slate-800">
                {accept.data.message}
              </p>
              <p className="mt-1 text-sm text-slate-500">
                Cuando te aprueben vas a ver el negocio en la barra superior.
              </p>
              <Link to="/home" className="mt-4 inline-block text-sm font-medium text-blue-600 hover:underline">
                Ir al inicio
              </Link>
            </div>
          </div>
        )}
      </Card>
    </div>
  );
}
