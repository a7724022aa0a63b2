import { Link } from 'react-router';
import { useBusiness } from '@/app/business-context';
import { cn } from '@/lib/cn';
import { formatDate, todayIn } from '@/lib/format';
import { daysLeft, usePlan } from './plan.api';

/** Days left of the trial, or why the business cannot be written to, with the way out. */
export function PlanBanner() {
  const { businessId, formatting } = useBusiness();
  const { data } = usePlan(businessId);
  if (!data || data.modo === 'local' || data.estado === 'activa') return null;
  const until = formatDate(todayIn(formatting.timezone, new Date(data.read_only_until)), formatting);
  const text = {
    trial: (() => {
      const n = daysLeft(data.trial_ends_at);
      return `Estás en la prueba gratis: ${n === 1 ? 'te queda 1 día' : `te quedan ${n} días`}.`;
    })(),
    solo_lectura: `Tu período de prueba terminó. El negocio está en modo solo lectura hasta el ${until}; elegí un plan para volver a registrar datos.`,
    bloqueada: 'El período de solo lectura terminó. Elegí un plan para volver a usar este negocio.',
  }[data.estado];
  return (
    <div
      role={data.estado === 'trial' ? 'status' : 'alert'}
      className={cn(
        'flex flex-wrap items-center gap-x-4 gap-y-1 border-b px-4 py-2 text-sm lg:px-8',
        data.estado === 'trial'
          ? 'border-blue-100 bg-blue-50 text-blue-900'
          : 'border-amber-200 bg-amber-50 text-amber-900',
      )}
    >
      <span>{text}</span>
      <Link to="/plan" className="font-semibold underline underline-offset-2">
        Elegir plan
      </Link>
    </div>
  );
}
