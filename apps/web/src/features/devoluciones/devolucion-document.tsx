import type { Devolucion } from '@mostrador/shared/devoluciones';
import { PrintPortal, printPage, type TicketFormat } from '@/features/pos/ticket';
import { cn } from '@/lib/cn';
import { formatDateTime, formatMoney, formatNumber, type Formatting } from '@/lib/format';

interface Props {
  devolucion: Devolucion;
  business: { nombre: string; cuit?: string | null } | null;
  formatting: Formatting;
}

/** The "Devolución" document: what went back of which sale and how, on 80 mm or A4. */
export function DevolucionDocument({ devolucion: d, business, formatting, format }: Props & { format: TicketFormat }) {
  const money = (n: number) => formatMoney(n, formatting);
  const narrow = format === '80mm';
  const destino =
    d.medio_tipo === 'cuenta_corriente' ? 'Acreditado en la cuenta corriente' : `Devuelto en ${d.medio_nombre}`;
  return (
    <article aria-label={`Devolución #${d.numero}`} className={printPage(format)}>
      <header className={cn(narrow ? 'text-center' : 'flex items-start justify-between border-b border-black pb-3')}>
        <div>
          <p className={cn('font-bold', narrow ? 'text-sm' : 'text-xl')}>{business?.nombre ?? 'Mostrador'}</p>
          {business?.cuit && <p>CUIT {business.cuit}</p>}
        </div>
        <div className={cn(!narrow && 'text-right')}>
          <p className="font-semibold">Devolución #{d.numero}</p>
          <p>{formatDateTime(d.fecha, formatting)}</p>
          <p>De la venta #{d.venta_numero}</p>
        </div>
      </header>
      {narrow && <hr className="my-1.5 border-dashed border-black" />}
      <p className={cn(!narrow && 'mt-3')}>Cliente: {d.cliente_nombre ?? 'Consumidor final'}</p>
      {d.usuario && <p>Atendió: {d.usuario.nombre}</p>}
      <table className={cn('w-full border-collapse', narrow ? 'mt-1.5' : 'mt-4')}>
        <thead>
          <tr className="border-b border-black text-left">
            <th className="py-0.5">Ítem</th>
            <th className="py-0.5 text-right">Cant.</th>
            <th className="py-0.5 text-right">Importe</th>
          </tr>
        </thead>
        <tbody>
          {d.items.map((i) => (
            <tr key={i.item_id} className={cn(!narrow && 'border-b border-slate-300')}>
              <td className="break-words py-0.5">{i.nombre}</td>
              <td className="py-0.5 text-right">{formatNumber(i.cantidad, formatting)}</td>
              <td className="py-0.5 text-right">{money(i.monto)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <dl className={cn(narrow ? 'mt-1.5' : 'ml-auto mt-4 w-72')}>
        <div
          className={cn('flex justify-between font-bold', narrow ? 'text-sm' : 'border-t border-black pt-1 text-lg')}
        >
          <dt>TOTAL DEVUELTO</dt>
          <dd>{money(d.monto)}</dd>
        </div>
        <div className="flex justify-between gap-2">
          <dt>{destino}</dt>
        </div>
      </dl>
      {d.motivo && <p className="mt-2">Motivo: {d.motivo}</p>}
      <p className="mt-3 text-center text-[10px]">Comprobante no válido como factura</p>
    </article>
  );
}

export function PrintableDevolucion(props: Props) {
  return <PrintPortal render={(format) => <DevolucionDocument {...props} format={format} />} />;
}
