import { Link } from 'react-router';
import { useBusiness } from '@/app/business-context';
import { formatDateTime, todayIn } from '@/lib/format';
import { useCajas } from './caja.api';

/** Turnos still open from a previous day (the dashboard flags them): they should be closed. */
export function StaleTurnos({ enabled }: { enabled: boolean }) {
  const { formatting } = useBusiness();
  const cajas = useCajas(enabled);
  const today = todayIn(formatting.timezone);
  const stale = (cajas.data ?? []).flatMap((c) =>
    c.turno_abierto && todayIn(formatting.timezone, new Date(c.turno_abierto.abierto_en)) < today
      ? [c.turno_abierto]
      : [],
  );
  if (!stale.length) return null;
  return (
    <div role="alert" className="mb-4 rounded-lg bg-amber-50 p-3 text-sm text-amber-800">
      {stale.map((t) => (
        <p key={t.id}>
          El turno #{t.numero} de {t.caja_nombre} está abierto desde el {formatDateTime(t.abierto_en, formatting)}:{' '}
          <Link to="/caja" className="font-medium underline">
            cerralo con el arqueo
          </Link>
          .
        </p>
      ))}
    </div>
  );
}
