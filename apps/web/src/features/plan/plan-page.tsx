import { Check } from 'lucide-react';
import { PLANS } from '@mostrador/shared/plans';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Badge, Card, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDate, todayIn } from '@/lib/format';
import { useChoosePlan, usePlan, type PlanInfo } from './plan.api';

const ESTADOS: Record<PlanInfo['estado'], string> = {
  trial: 'Prueba gratis',
  activa: 'Activo',
  solo_lectura: 'Solo lectura',
  bloqueada: 'Bloqueado',
};

/** SPEC §1, §9: plans and their limits. Payment is not integrated yet, and the page says so. */
export default function PlanPage() {
  const { business, businessId, formatting } = useBusiness();
  const plan = usePlan(businessId);
  const choose = useChoosePlan(businessId ?? '');
  const isAdmin = business?.rol === 'admin' || business?.es_creador;
  const p = plan.data;
  const day = (iso: string) => formatDate(todayIn(formatting.timezone, new Date(iso)), formatting);
  if (p?.modo === 'local') return <LocalInstall nombre={business?.nombre} usuarios={p.usuarios_activos} />;
  return (
    <div>
      <PageHeader title="Plan del negocio" description={business ? business.nombre : undefined} />
      {plan.isLoading && <Skeleton className="h-24" />}
      {p && (
        <Card className="mb-6">
          <div className="flex flex-wrap items-center gap-3">
            <span className="text-sm text-slate-500">Plan actual:</span>
            <strong className="text-slate-900">
              {p.plan === 'trial' ? 'Prueba gratis' : PLANS.find((x) => x.id === p.plan)?.nombre}
            </strong>
            <Badge color={p.estado === 'activa' ? 'green' : p.estado === 'trial' ? 'blue' : 'yellow'}>
              {ESTADOS[p.estado]}
            </Badge>
          </div>
          <p className="mt-2 text-sm text-slate-600">
            {p.plan === 'trial' &&
              `La prueba gratis termina el ${day(p.trial_ends_at)}. Después, sin un plan elegido, el negocio queda en solo lectura hasta el ${day(p.read_only_until)}. Nunca se borran datos.`}
            {p.plan !== 'trial' && 'Tu negocio puede registrar datos sin restricciones.'}
          </p>
          <p className="mt-1 text-sm text-slate-600">
            Usuarios activos: {p.usuarios_activos}
            {p.limite_usuarios !== null ? ` de ${p.limite_usuarios}` : ' (sin límite)'}.
          </p>
        </Card>
      )}
      <div className="grid gap-4 md:grid-cols-3">
        {PLANS.map((option) => {
          const current = p?.plan === option.id;
          return (
            <Card key={option.id} className={current ? 'ring-2 ring-blue-500' : ''}>
              <h2 className="text-lg font-semibold text-slate-900">{option.nombre}</h2>
              <p className="mt-1 text-2xl font-bold text-slate-900">{option.precio}</p>
              <p className="text-xs text-slate-500">Precio referencial</p>
              <ul className="mt-4 space-y-2 text-sm text-slate-700">
                <li className="flex gap-2">
                  <Check className="h-4 w-4 shrink-0 text-emerald-600" aria-hidden />
                  {option.usuarios === null ? 'Usuarios ilimitados' : `Hasta ${option.usuarios} usuarios`}
                </li>
                <li className="flex gap-2">
                  <Check className="h-4 w-4 shrink-0 text-emerald-600" aria-hidden />
                  {option.almacenamiento_gb === null
                    ? 'Almacenamiento ilimitado'
                    : `${option.almacenamiento_gb} GB de almacenamiento`}
                </li>
                <li className="flex gap-2">
                  <Check className="h-4 w-4 shrink-0 text-emerald-600" aria-hidden />
                  Todos los módulos
                </li>
              </ul>
              <Button
                className="mt-6 w-full"
                variant={current ? 'secondary' : 'primary'}
                disabled={!isAdmin || current || choose.isPending}
                loading={choose.isPending && choose.variables === option.id}
                onClick={() => choose.mutate(option.id)}
              >
                {current ? 'Plan actual' : `Elegir ${option.nombre}`}
              </Button>
            </Card>
          );
        })}
      </div>
      {choose.error && (
        <div className="mt-4">
          <ErrorNote>{errorMessage(choose.error)}</ErrorNote>
        </div>
      )}
      {choose.isSuccess && (
        <p role="status" className="mt-4 text-sm text-emerald-700">
          Plan registrado. Ya podés seguir registrando datos.
        </p>
      )}
      <p className="mt-6 text-sm text-slate-500">
        El pago todavía no está integrado en Mostrador: al elegir un plan lo registramos y te contactamos para coordinar
        el pago.
        {!isAdmin && ' Solo un administrador del negocio puede elegir el plan.'}
      </p>
    </div>
  );
}

/** Installed in the shop (modo local): no trial, no plans to choose, no limits. */
function LocalInstall({ nombre, usuarios }: { nombre?: string; usuarios: number }) {
  return (
    <div>
      <PageHeader title="Plan del negocio" description={nombre} />
      <Card>
        <div className="flex flex-wrap items-center gap-3">
          <strong className="text-slate-900">Instalación en tu local</strong>
          <Badge color="green">Sin límites</Badge>
        </div>
        <p className="mt-2 text-sm text-slate-600">
          Mostrador corre en una computadora de tu negocio: no hay período de prueba ni planes que elegir. Todos los
          módulos están habilitados, sin límite de usuarios ni de almacenamiento.
        </p>
        <p className="mt-1 text-sm text-slate-600">Usuarios activos: {usuarios}.</p>
      </Card>
    </div>
  );
}
