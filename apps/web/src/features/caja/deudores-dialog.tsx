import { Download } from 'lucide-react';
import { AGEING_BUCKETS, AGEING_LABELS } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorNote, Skeleton } from '@/components/ui/misc';
import { useDownload } from '@/lib/download';
import { formatMoney } from '@/lib/format';
import { useDeudores } from './caja.api';

/** The customers who owe on account, with the ageing of each balance. */
export function DeudoresDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { businessId, formatting } = useBusiness();
  const list = useDeudores(open);
  const download = useDownload('No se pudo exportar.');
  const money = (n: number) => (n ? formatMoney(n, formatting) : '—');
  const total = (list.data ?? []).reduce((s, d) => s + Math.round(d.saldo * 100), 0) / 100;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Cuentas corrientes"
      description="Quién te debe y desde cuándo: los cobros pagan primero las ventas más viejas."
      className="max-w-4xl"
    >
      {list.isPending ? (
        <Skeleton className="h-32" />
      ) : !list.data?.length ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
          Ningún cliente te debe.
        </p>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full min-w-[640px] text-sm" aria-label="Clientes que deben">
            <thead className="bg-slate-50 text-left text-slate-500">
              <tr>
                <th className="px-2 py-1 font-medium">Cliente</th>
                <th className="px-2 py-1 text-right font-medium">Debe</th>
                {AGEING_BUCKETS.map((b) => (
                  <th key={b} className="px-2 py-1 text-right font-medium">
                    {AGEING_LABELS[b]}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {list.data.map((d) => (
                <tr key={d.cliente_id}>
                  <td className="px-2 py-1 font-medium">{d.cliente_nombre}</td>
                  <td className="px-2 py-1 text-right font-semibold tabular-nums">{money(d.saldo)}</td>
                  {AGEING_BUCKETS.map((b) => (
                    <td
                      key={b}
                      className={`px-2 py-1 text-right tabular-nums ${b === 'd90_mas' && d.antiguedad[b] ? 'text-red-600' : ''}`}
                    >
                      {money(d.antiguedad[b])}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr className="border-t border-slate-300 font-semibold">
                <td className="px-2 py-1">Total</td>
                <td className="px-2 py-1 text-right tabular-nums">{money(total)}</td>
              </tr>
            </tfoot>
          </table>
        </div>
      )}
      {download.error && <ErrorNote>{download.error}</ErrorNote>}
      <div className="mt-4 flex justify-end gap-2">
        <Button
          variant="secondary"
          loading={download.busy}
          onClick={() => download.run(`/businesses/${businessId}/cuentas-corrientes/exportar`)}
        >
          <Download className="h-4 w-4" /> Exportar
        </Button>
        <Button onClick={onClose}>Listo</Button>
      </div>
    </Dialog>
  );
}
