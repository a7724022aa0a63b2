import type { ColumnDef } from '@tanstack/react-table';
import { Download } from 'lucide-react';
import { AGEING_BUCKETS, AGEING_LABELS, type Deudor } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { DataTable } from '@/components/data-table';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { ErrorNote } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { useDownload } from '@/lib/download';
import { formatMoney } from '@/lib/format';
import { useDeudores } from './caja.api';

/** Who owes, the whole balance and its ageing; the browser has them all and sorts them itself. */
function deudorColumns(money: (n: number) => string): ColumnDef<Deudor, unknown>[] {
  return [
    {
      id: 'cliente',
      header: 'Cliente',
      accessorKey: 'cliente_nombre',
      enableHiding: false,
      sortingFn: (a, b) => a.original.cliente_nombre.localeCompare(b.original.cliente_nombre, 'es'),
      meta: { label: 'Cliente', primary: true, className: 'font-medium text-slate-900' },
    },
    {
      id: 'saldo',
      header: 'Debe',
      accessorKey: 'saldo',
      meta: { label: 'Debe', align: 'right', className: 'font-semibold whitespace-nowrap' },
      cell: ({ row }) => money(row.original.saldo),
    },
    ...AGEING_BUCKETS.map((b): ColumnDef<Deudor, unknown> => ({
      id: b,
      header: AGEING_LABELS[b],
      accessorFn: (d) => d.antiguedad[b],
      meta: {
        label: AGEING_LABELS[b],
        align: 'right',
        className: 'whitespace-nowrap',
      },
      cell: ({ row: { original: d } }) => (
        <span className={b === 'd90_mas' && d.antiguedad[b] ? 'text-red-600' : undefined}>
          {money(d.antiguedad[b])}
        </span>
      ),
    })),
  ];
}

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
      <DataTable
        screen="cuentas-corrientes"
        label="Clientes que deben"
        columns={deudorColumns(money)}
        rows={list.data}
        loading={list.isPending}
        error={list.error ? errorMessage(list.error, 'No se pudieron cargar las cuentas corrientes.') : null}
        rowId={(d) => d.cliente_id}
        countLabel={['cliente', 'clientes']}
        empty={
          <p className="rounded-lg border border-dashed border-slate-300 p-6 text-center text-sm text-slate-500">
            Ningún cliente te debe.
          </p>
        }
      />
      {Boolean(list.data?.length) && (
        <p className="mt-3 flex justify-end gap-3 text-sm font-semibold text-slate-900">
          <span>Total adeudado</span>
          <span className="tabular-nums">{money(total)}</span>
        </p>
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
