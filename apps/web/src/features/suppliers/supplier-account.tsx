import { Download, Printer } from 'lucide-react';
import { SUPPLIER_MOVE_LABELS, type SupplierAccount } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ErrorNote } from '@/components/ui/misc';
import { PrintPortal, printPage, printTicket, type TicketFormat } from '@/features/pos/ticket';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { useDownload } from '@/lib/download';
import { formatDate, formatMoney, type Formatting } from '@/lib/format';
import { useSupplierAccount } from './suppliers.api';

/** The supplier's cuenta corriente: payables and their payments (whole or in parts) with the running balance. */
export function SupplierAccountSection({ id }: { id: string }) {
  const { businessId, formatting } = useBusiness();
  const account = useSupplierAccount(id);
  const download = useDownload('No se pudo exportar la cuenta del proveedor.');
  const money = (n: number) => formatMoney(n, formatting);
  if (account.error) return <ErrorNote>{errorMessage(account.error, 'No se pudo cargar la cuenta.')}</ErrorNote>;
  const c = account.data;
  if (!c) return null;
  return (
    <section aria-labelledby="prov-cuenta" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="prov-cuenta" className="text-sm font-semibold text-slate-900">
          Cuenta corriente
        </h3>
        {c.movimientos.length > 0 && (
          <div className="flex gap-2">
            <Button size="sm" variant="secondary" onClick={() => printTicket('a4')}>
              <Printer className="h-4 w-4" /> Imprimir
            </Button>
            <Button
              size="sm"
              variant="secondary"
              loading={download.busy}
              onClick={() => download.run(`/businesses/${businessId}/proveedores/${id}/cuenta-corriente/exportar`)}
            >
              <Download className="h-4 w-4" /> Exportar
            </Button>
          </div>
        )}
      </div>
      {c.movimientos.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-3 text-center text-sm text-slate-500">
          Sin compras a pagar: las compras en cuenta corriente y sus pagos aparecen acá.
        </p>
      ) : (
        <div className="max-h-64 overflow-auto rounded-lg border border-slate-200">
          <MovesTable account={c} formatting={formatting} money={money} />
        </div>
      )}
      <PrintPortal render={(format) => <Statement account={c} formatting={formatting} format={format} />} />
    </section>
  );
}

function MovesTable({
  account,
  formatting,
  money,
  print,
}: {
  account: SupplierAccount;
  formatting: Formatting;
  money: (n: number) => string;
  print?: boolean;
}) {
  const cell = print ? 'py-0.5' : 'px-2 py-1';
  // On a phone the screen shows one signed amount instead of Debe and Haber.
  const wide = print ? '' : 'hidden sm:table-cell';
  const narrow = print ? 'hidden' : 'sm:hidden';
  return (
    <table className="w-full text-sm" aria-label={`Cuenta corriente de ${account.proveedor_nombre}`}>
      <thead className={cn('text-left', print ? 'border-b border-black' : 'sticky top-0 bg-slate-50 text-slate-500')}>
        <tr>
          <th className={cn(cell, 'font-medium')}>Fecha</th>
          <th className={cn(cell, 'font-medium')}>Concepto</th>
          <th className={cn(cell, wide, 'text-right font-medium')}>Debe</th>
          <th className={cn(cell, wide, 'text-right font-medium')}>Haber</th>
          <th className={cn(cell, narrow, 'text-right font-medium')}>Importe</th>
          <th className={cn(cell, 'text-right font-medium')}>Saldo</th>
        </tr>
      </thead>
      <tbody className={print ? undefined : 'divide-y divide-slate-100'}>
        {account.movimientos.map((m) => (
          <tr key={`${m.tipo}-${m.movimiento_id ?? m.cuenta_id}`}>
            <td className={cell}>{formatDate(m.fecha, formatting)}</td>
            <td className={cell}>
              {SUPPLIER_MOVE_LABELS[m.tipo]}
              <span className={cn('text-xs text-slate-500', print ? 'block' : 'hidden sm:block')}>{m.descripcion}</span>
            </td>
            <td className={cn(cell, wide, 'text-right tabular-nums')}>{m.debe ? money(m.debe) : ''}</td>
            <td className={cn(cell, wide, 'text-right tabular-nums')}>{m.haber ? money(m.haber) : ''}</td>
            <td className={cn(cell, narrow, 'text-right tabular-nums')}>
              {m.debe ? money(m.debe) : `−${money(m.haber)}`}
            </td>
            <td className={cn(cell, 'text-right tabular-nums')}>{money(m.saldo)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Statement({
  account,
  formatting,
  format,
}: {
  account: SupplierAccount;
  formatting: Formatting;
  format: TicketFormat;
}) {
  const { business } = useBusiness();
  const money = (n: number) => formatMoney(n, formatting);
  return (
    <article aria-label={`Cuenta de ${account.proveedor_nombre}`} className={printPage(format)}>
      <p className="text-xl font-bold">{business?.nombre ?? 'Mostrador'}</p>
      <p className="font-semibold">Cuenta corriente · {account.proveedor_nombre}</p>
      <MovesTable account={account} formatting={formatting} money={money} print />
      <p className="mt-2 text-right font-semibold">Saldo a pagar: {money(account.saldo)}</p>
    </article>
  );
}
