import { useQuery } from '@tanstack/react-query';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';
import { formatDate, todayIn } from '@/lib/format';

interface CopiaInfo {
  activas: boolean;
  ultima_copia: string | null;
  carpeta: string | null;
  error: string | null;
}

/** The date of the last good daily backup (installed in the shop); admins only, nothing otherwise. */
export function BackupLine({ businessId }: { businessId: string }) {
  const { formatting } = useBusiness();
  const { data } = useQuery({
    queryKey: ['copia-de-seguridad', businessId],
    queryFn: () => api.get<CopiaInfo>(`/businesses/${businessId}/copia-de-seguridad`),
    retry: false,
    staleTime: 60_000,
  });
  if (!data?.activas) return null;
  const when = data.ultima_copia ? new Date(data.ultima_copia) : null;
  const time = when?.toLocaleTimeString(formatting.locale, {
    timeZone: formatting.timezone,
    hour: '2-digit',
    minute: '2-digit',
  });
  return (
    <p
      role="status"
      className={`mb-4 rounded-md border px-3 py-2 text-sm ${data.error || !when ? 'border-amber-200 bg-amber-50 text-amber-900' : 'border-slate-200 bg-slate-50 text-slate-700'}`}
    >
      {when
        ? `Última copia de seguridad: ${formatDate(todayIn(formatting.timezone, when), formatting)} a las ${time}, en ${data.carpeta}.`
        : `Todavía no hay copias de seguridad en ${data.carpeta}.`}
      {data.error && ` La última no se pudo hacer: ${data.error}`}
    </p>
  );
}
