import { Link } from 'react-router';
import { useBusiness } from '@/app/business-context';
import { formatMoney } from '@/lib/format';
import { useRemitos } from './remitos.api';

/** A customer's remitos still to invoice (in the customer's ficha), each a link to it. */
export function RemitosPendientesCliente({ clienteId }: { clienteId: string }) {
  const { formatting } = useBusiness();
  const q = useRemitos({ cliente_id: clienteId, estado: 'pendiente', limit: 20, offset: 0 });
  const rows = q.data?.remitos ?? [];
  if (!rows.length) return null;
  const total = rows.reduce((s, r) => s + Math.round(r.total * 100), 0);
  return (
    <section
      aria-label="Remitos pendientes de facturar"
      className="rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm"
    >
      <p className="font-medium text-amber-900">
        {rows.length === 1
          ? '1 remito pendiente de facturar'
          : `${q.data?.total ?? rows.length} remitos pendientes de facturar`}{' '}
        · {formatMoney(total / 100, formatting)}
      </p>
      <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1">
        {rows.map((r) => (
          <li key={r.id}>
            <Link className="text-amber-900 underline" to={`/remitos/${r.id}`}>
              #{r.numero}
            </Link>
          </li>
        ))}
      </ul>
      <Link
        className="mt-2 inline-block font-medium text-blue-700 hover:underline"
        to={`/remitos?estado=pendiente&cliente_id=${clienteId}`}
      >
        Facturarlos desde Remitos
      </Link>
    </section>
  );
}
