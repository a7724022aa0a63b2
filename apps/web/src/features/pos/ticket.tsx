import { useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { paymentMethodLabel } from '@mostrador/shared/payment-methods';
import type { Sale } from '@mostrador/shared/sales';
import { cn } from '@/lib/cn';
import { formatDateTime, formatMoney, formatNumber, type Formatting } from '@/lib/format';

export type TicketFormat = '80mm' | 'a4';

export interface TicketExtras {
  /** Cash handed over (cash sales only) and the change (after split payments too), in cents. */
  pagaCon?: number | null;
  vuelto?: number | null;
  /** The unit of each product sold by weight or measure (producto_id → "kg"), from the cart. */
  unidades?: Record<string, string>;
  /** Sold on cuenta corriente: the customer's balance after this sale, in cents. */
  saldoCliente?: number | null;
  /** Who attended when the sale does not say yet (a sale waiting to be sent). */
  atendio?: string | null;
}

/** The shop as its tickets name it: the fiscal address and IVA condition come from its billing setup. */
export interface TicketBusiness {
  nombre: string;
  cuit?: string | null;
  domicilio?: string | null;
  /** As printed ("Monotributo", "Responsable inscripto"). */
  condicionIva?: string | null;
}

/*
 * The printed ticket: an 80 mm roll or an A4 page. Printing shows only #ticket-print-root (the
 * rest of the page is hidden by the print rules below) and sets the page size of the format.
 */
const PRINT_CSS = `
#ticket-print-root { display: none; }
@media print {
  body.printing-ticket > *:not(#ticket-print-root) { display: none !important; }
  body.printing-ticket #ticket-print-root { display: block !important; }
  body.printing-ticket { background: #fff !important; }
}`;

function ensurePrintRoot(): HTMLElement {
  if (!document.getElementById('ticket-print-css')) {
    const style = document.createElement('style');
    style.id = 'ticket-print-css';
    style.textContent = PRINT_CSS;
    document.head.appendChild(style);
  }
  let root = document.getElementById('ticket-print-root');
  if (!root) {
    root = document.createElement('div');
    root.id = 'ticket-print-root';
    document.body.appendChild(root);
  }
  return root;
}

/** The page of a printed document: an 80 mm roll (monospace) or an A4 sheet. */
export const printPage = (format: TicketFormat) =>
  cn(
    'bg-white text-black',
    format === '80mm'
      ? 'w-[74mm] max-w-full font-mono text-[11px] leading-snug'
      : 'mx-auto w-full max-w-[180mm] text-sm',
  );

/** Opens the browser's print dialog for the ticket in `format`. */
export function printTicket(format: TicketFormat) {
  ensurePrintRoot();
  let page = document.getElementById('ticket-page-size') as HTMLStyleElement | null;
  if (!page) {
    page = document.createElement('style');
    page.id = 'ticket-page-size';
    document.head.appendChild(page);
  }
  page.textContent =
    format === '80mm' ? '@page { size: 80mm auto; margin: 3mm; }' : '@page { size: A4; margin: 15mm; }';
  document.body.classList.add('printing-ticket');
  document.body.dataset.ticketFormat = format;
  const done = () => {
    document.body.classList.remove('printing-ticket');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  window.print();
  // Some browsers do not fire afterprint after a blocking print(): clean up anyway.
  setTimeout(done, 1000);
}

/** Renders what to print, in both formats, where the print rules find it (and nowhere on screen). */
export function PrintPortal({ render }: { render: (format: TicketFormat) => ReactNode }) {
  // A client-only app: the print root can be made while rendering.
  const [root] = useState(ensurePrintRoot);
  return createPortal(
    <>
      <div className="ticket-80">{render('80mm')}</div>
      <style>{`body:not([data-ticket-format="80mm"]) #ticket-print-root .ticket-80 { display: none; }
body:not([data-ticket-format="a4"]) #ticket-print-root .ticket-a4 { display: none; }`}</style>
      <div className="ticket-a4">{render('a4')}</div>
    </>,
    root,
  );
}

/** The ticket of `sale`, ready for printTicket. */
export function PrintableTicket(props: TicketProps) {
  return <PrintPortal render={(format) => <Ticket {...props} format={format} />} />;
}

interface TicketProps {
  sale: Sale;
  business: TicketBusiness | null;
  formatting: Formatting;
  extras?: TicketExtras;
}

export function Ticket({ sale, business, formatting, extras, format }: TicketProps & { format: TicketFormat }) {
  const money = (n: number) => formatMoney(n, formatting);
  const narrow = format === '80mm';
  /** "0,75 kg" for a weighed line; a plain number for units. */
  const cantidad = (i: Sale['items'][number]) => {
    const unidad = i.producto_id ? extras?.unidades?.[i.producto_id] : undefined;
    return `${formatNumber(i.cantidad, formatting)}${unidad ? ` ${unidad}` : ''}`;
  };
  const vuelto = extras?.vuelto ?? (sale.pagos ?? []).reduce((s, p) => s + Math.round((p.vuelto ?? 0) * 100), 0);
  const atendio = sale.vendedor?.nombre ?? extras?.atendio ?? null;
  return (
    <article
      aria-label={sale.numero ? `Ticket de la venta #${sale.numero}` : 'Ticket pendiente de sincronizar'}
      className={printPage(format)}
    >
      <header className={cn(narrow ? 'text-center' : 'flex items-start justify-between border-b border-black pb-3')}>
        <div>
          <p className={cn('font-bold', narrow ? 'text-sm' : 'text-xl')}>{business?.nombre ?? 'Mostrador'}</p>
          {business?.cuit && <p>CUIT {business.cuit}</p>}
          {business?.domicilio && <p>{business.domicilio}</p>}
          {business?.condicionIva && <p>IVA {business.condicionIva}</p>}
        </div>
        <div className={cn(!narrow && 'text-right')}>
          <p className="font-semibold">{sale.numero ? `Venta #${sale.numero}` : 'PENDIENTE DE SINCRONIZAR'}</p>
          <p>{formatDateTime(sale.fecha, formatting)}</p>
        </div>
      </header>
      {narrow && <hr className="my-1.5 border-dashed border-black" />}
      <p className={cn(!narrow && 'mt-3')}>Cliente: {sale.cliente_nombre ?? 'Consumidor final'}</p>
      {atendio && <p>Atendió: {atendio}</p>}
      {narrow ? (
        <>
          <hr className="my-1.5 border-dashed border-black" />
          <ul>
            {sale.items.map((i) => (
              <li key={i.id} className="mb-1">
                <p className="break-words">{i.nombre}</p>
                <p className="flex justify-between gap-2">
                  <span>
                    {cantidad(i)} × {money(i.precio_unitario)}
                  </span>
                  <span>{money(i.subtotal)}</span>
                </p>
                {i.descuento > 0 && <p>Descuento −{money(i.descuento)}</p>}
              </li>
            ))}
          </ul>
          <hr className="my-1.5 border-dashed border-black" />
        </>
      ) : (
        <table className="mt-4 w-full border-collapse">
          <thead>
            <tr className="border-b border-black text-left">
              <th className="py-1">Descripción</th>
              <th className="py-1 text-right">Cantidad</th>
              <th className="py-1 text-right">Precio unitario</th>
              <th className="py-1 text-right">Subtotal</th>
            </tr>
          </thead>
          <tbody>
            {sale.items.map((i) => (
              <tr key={i.id} className="border-b border-slate-300">
                <td className="py-1">
                  {i.nombre}
                  {i.descuento > 0 && <span className="block text-xs">Descuento −{money(i.descuento)}</span>}
                </td>
                <td className="py-1 text-right">{cantidad(i)}</td>
                <td className="py-1 text-right">{money(i.precio_unitario)}</td>
                <td className="py-1 text-right">{money(i.subtotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <dl className={cn(narrow ? '' : 'ml-auto mt-4 w-72')}>
        {sale.descuento > 0 && (
          <>
            <div className="flex justify-between">
              <dt>Subtotal</dt>
              <dd>{money(sale.subtotal)}</dd>
            </div>
            <div className="flex justify-between">
              <dt>Descuento</dt>
              <dd>-{money(sale.descuento)}</dd>
            </div>
          </>
        )}
        {sale.ajuste !== 0 && sale.ajuste !== undefined && (
          <div className="flex justify-between">
            <dt>{sale.ajuste > 0 ? 'Recargo medio de pago' : 'Descuento medio de pago'}</dt>
            <dd>{money(sale.ajuste)}</dd>
          </div>
        )}
        <div
          className={cn('flex justify-between font-bold', narrow ? 'text-sm' : 'border-t border-black pt-1 text-lg')}
        >
          <dt>TOTAL</dt>
          <dd>{money(sale.total)}</dd>
        </div>
        {sale.pagos && sale.pagos.length > 1 ? (
          sale.pagos.map((p, i) => (
            <div key={i} className="flex justify-between">
              <dt>{p.nombre}</dt>
              <dd>{money(p.total)}</dd>
            </div>
          ))
        ) : (
          <div className="flex justify-between">
            <dt>Medio de pago</dt>
            <dd>{sale.pagos?.[0]?.nombre ?? paymentMethodLabel(sale.metodo_pago)}</dd>
          </div>
        )}
        {extras?.pagaCon ? (
          <div className="flex justify-between">
            <dt>Pagó con</dt>
            <dd>{money(extras.pagaCon / 100)}</dd>
          </div>
        ) : null}
        {extras?.pagaCon || vuelto > 0 ? (
          <div className="flex justify-between">
            <dt>Vuelto</dt>
            <dd>{money(vuelto / 100)}</dd>
          </div>
        ) : null}
        {extras?.saldoCliente != null && (
          <div className="flex justify-between">
            <dt>Saldo en cuenta corriente</dt>
            <dd>{money(extras.saldoCliente / 100)}</dd>
          </div>
        )}
      </dl>
      {sale.estado === 'anulada' && <p className="mt-2 text-center font-bold">VENTA ANULADA</p>}
      {sale.observaciones && <p className="mt-2">Obs.: {sale.observaciones}</p>}
      <p className={cn('mt-3 text-center', !narrow && 'text-slate-600')}>¡Gracias por su compra!</p>
      <p className="text-center text-[10px]">Comprobante no válido como factura</p>
    </article>
  );
}
