import { ENTORNO_LABELS, type Comprobante } from '@mostrador/shared/facturacion';
import { useState } from 'react';
import { createPortal } from 'react-dom';
import { printPage, printTicket, type TicketFormat } from '@/features/pos/ticket';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney, formatNumber, type Formatting } from '@/lib/format';
import { ArcaQr } from './arca-qr';
import { formatCuit, invoiceLayout } from './invoice-layout';

interface Props {
  comprobante: Comprobante;
  formatting: Formatting;
}

/**
 * The printed factura or nota de crédito (RG 1415 / RG 4892): the letter box with its code,
 * issuer and receptor, lines, IVA discriminated on A (lines net, the bonificación, the net and IVA
 * per rate as sent to ARCA), the legends (RG 5003), totals, CAE and its due date, and ARCA's QR.
 */
export function InvoiceDocument({ comprobante: c, formatting, format }: Props & { format: TicketFormat }) {
  const l = invoiceLayout(c);
  const money = (n: number) => formatMoney(n, formatting);
  const narrow = format === '80mm';
  const e = c.emisor;
  const r = c.receptor;
  const doc =
    r.doc_tipo === 'sin_documento' || !r.doc_nro
      ? null
      : `${r.doc_tipo} ${r.doc_tipo === 'CUIT' ? formatCuit(r.doc_nro) : r.doc_nro}`;
  const emisorData = (
    <div className={cn(narrow ? 'text-center' : 'text-xs leading-relaxed')}>
      <p className={cn('font-bold', narrow ? 'text-sm' : 'text-lg')}>{e.razon_social}</p>
      {e.domicilio_fiscal && <p>{e.domicilio_fiscal}</p>}
      <p>{e.condicion_iva_label}</p>
    </div>
  );
  const emisorFiscal = (
    <div className={cn(narrow ? 'text-center' : 'text-xs leading-relaxed')}>
      <p>CUIT: {formatCuit(e.cuit)}</p>
      {e.iibb && <p>Ingresos Brutos: {e.iibb}</p>}
      {e.inicio_actividades && <p>Inicio de actividades: {formatDate(e.inicio_actividades, formatting)}</p>}
    </div>
  );
  const letterBox = (
    <div
      className={cn(
        'flex flex-col items-center justify-center border-2 border-black',
        narrow ? 'mx-auto my-1 h-12 w-12' : 'h-16 w-16',
      )}
      aria-label={`Letra ${l.letra}`}
    >
      <span className={cn('font-bold leading-none', narrow ? 'text-2xl' : 'text-4xl')}>{l.letra}</span>
      <span className="text-[9px] leading-none">{l.codigo}</span>
    </div>
  );
  const title = (
    <div className={cn(narrow ? 'text-center' : 'text-right')}>
      <p className={cn('font-bold', narrow ? 'text-sm' : 'text-xl')}>{l.titulo}</p>
      <p className="font-semibold">N.º {l.numero}</p>
      <p>Fecha: {formatDate(c.fecha, formatting)}</p>
      {l.asociado && <p>Asociada a: {l.asociado}</p>}
    </div>
  );
  return (
    <article aria-label={`${c.tipo_label} ${l.numero}`} className={printPage(format)} data-testid="invoice-document">
      {c.entorno === 'homologacion' && (
        <p className="mb-1 border border-black text-center text-[10px] font-bold">
          {ENTORNO_LABELS.homologacion.toUpperCase()} — SIN VALIDEZ FISCAL
        </p>
      )}
      {narrow ? (
        <header>
          {emisorData}
          {emisorFiscal}
          <hr className="my-1.5 border-dashed border-black" />
          {letterBox}
          {title}
        </header>
      ) : (
        <header className="grid grid-cols-[1fr_auto_1fr] items-start gap-4 border-b-2 border-black pb-3">
          {emisorData}
          {letterBox}
          <div className="space-y-1">
            {title}
            <div className="text-right">{emisorFiscal}</div>
          </div>
        </header>
      )}
      {narrow && <hr className="my-1.5 border-dashed border-black" />}
      <section
        aria-label="Receptor"
        className={cn(narrow ? '' : 'mt-3 border-b border-black pb-2 text-xs leading-relaxed')}
      >
        <p>
          <span className="font-semibold">{narrow ? 'Cliente: ' : 'Apellido y nombre / Razón social: '}</span>
          {r.nombre}
        </p>
        {doc && <p>{doc}</p>}
        <p>Condición frente al IVA: {r.condicion_iva_label}</p>
        {r.domicilio && <p>Domicilio: {r.domicilio}</p>}
        <p>Venta #{c.venta_numero}</p>
      </section>
      {narrow ? (
        <>
          <hr className="my-1.5 border-dashed border-black" />
          <ul>
            {l.lineas.map((li, i) => (
              <li key={i} className="mb-1">
                <p className="break-words">{li.nombre}</p>
                <p className="flex justify-between gap-2">
                  <span>
                    {formatNumber(li.cantidad, formatting)} × {money(li.precio)}
                    {li.alicuota && ` (${li.alicuota})`}
                  </span>
                  <span>{money(li.subtotal)}</span>
                </p>
                {li.descuento > 0 && <p>Bonif. −{money(li.descuento)}</p>}
              </li>
            ))}
          </ul>
          <hr className="my-1.5 border-dashed border-black" />
        </>
      ) : (
        <table className="mt-3 w-full border-collapse text-xs">
          <thead>
            <tr className="border-b border-black text-left">
              <th className="py-1">Descripción</th>
              <th className="py-1 text-right">Cantidad</th>
              <th className="py-1 text-right">{l.discrimina ? 'Precio unit. (sin IVA)' : 'Precio unit.'}</th>
              <th className="py-1 text-right">Bonif.</th>
              {l.discrimina && <th className="py-1 text-right">Alícuota IVA</th>}
              <th className="py-1 text-right">{l.discrimina ? 'Subtotal (sin IVA)' : 'Subtotal'}</th>
            </tr>
          </thead>
          <tbody>
            {l.lineas.map((li, i) => (
              <tr key={i} className="border-b border-slate-300">
                <td className="py-1">{li.nombre}</td>
                <td className="py-1 text-right">{formatNumber(li.cantidad, formatting)}</td>
                <td className="py-1 text-right">{money(li.precio)}</td>
                <td className="py-1 text-right">{li.descuento > 0 ? money(li.descuento) : '—'}</td>
                {l.discrimina && <td className="py-1 text-right">{li.alicuota}</td>}
                <td className="py-1 text-right">{money(li.subtotal)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <dl className={cn(narrow ? '' : 'ml-auto mt-3 w-80')} data-testid="invoice-totales">
        {l.totales.map((t) => (
          <div
            key={t.label}
            className={cn(
              'flex justify-between gap-2',
              t.strong && 'font-bold',
              t.strong && (narrow ? 'text-sm' : 'border-t border-black pt-1 text-base'),
            )}
          >
            <dt>{t.label}</dt>
            <dd>{money(t.value)}</dd>
          </div>
        ))}
      </dl>
      {l.leyendas.map((t) => (
        <p
          key={t}
          className={cn('mt-2 border border-black p-1 text-[10px] font-semibold', !narrow && 'text-center')}
          data-testid="invoice-leyenda"
        >
          {t}
        </p>
      ))}
      {l.ivaContenido !== null && (
        <div className={cn('mt-2 text-[10px]', !narrow && 'ml-auto w-80')}>
          <p className="font-semibold">Régimen de Transparencia Fiscal al Consumidor (Ley 27.743)</p>
          <p className="flex justify-between">
            <span>IVA contenido</span>
            <span>{money(l.ivaContenido)}</span>
          </p>
        </div>
      )}
      <footer
        className={cn(
          'mt-3 flex gap-3',
          narrow ? 'flex-col items-center text-center' : 'items-center justify-between border-t-2 border-black pt-3',
        )}
      >
        {l.valido && c.qr_url ? <ArcaQr url={c.qr_url} size={narrow ? '32mm' : '30mm'} /> : null}
        <div className={cn(narrow ? '' : 'text-right')} data-testid="invoice-cae">
          {l.valido ? (
            <>
              <p className="font-semibold">Comprobante autorizado</p>
              {/* Issued under a CAEA during an outage (decision 0047): the CAEA and its vigencia instead of a CAE. */}
              <p>
                {c.emision === 'caea' ? 'CAEA' : 'CAE'} N.º: {c.cae}
              </p>
              <p>
                Vto. de {c.emision === 'caea' ? 'CAEA' : 'CAE'}: {formatDate(c.cae_vencimiento, formatting)}
              </p>
            </>
          ) : (
            <p className="font-bold">
              {c.estado === 'rechazado'
                ? 'COMPROBANTE RECHAZADO POR ARCA — NO VÁLIDO'
                : 'PENDIENTE DE AUTORIZACIÓN DE ARCA — NO VÁLIDO TODAVÍA'}
            </p>
          )}
        </div>
      </footer>
    </article>
  );
}

/*
 * A screen may hold a ticket and an invoice ready to print at once (the POS after a sale): the
 * invoice goes in its own wrapper inside the ticket's print root, and printing one hides the other.
 */
const INVOICE_PRINT_CSS = `
body.printing-invoice #ticket-print-root > :not(.invoice-print) { display: none !important; }
body:not(.printing-invoice) #ticket-print-root > .invoice-print { display: none !important; }
body:not([data-ticket-format="80mm"]) #ticket-print-root .invoice-print .ticket-80 { display: none; }
body:not([data-ticket-format="a4"]) #ticket-print-root .invoice-print .ticket-a4 { display: none; }`;

function invoiceRoot(): HTMLElement {
  let root = document.getElementById('ticket-print-root');
  if (!root) {
    root = document.createElement('div');
    root.id = 'ticket-print-root';
    // printTicket's rules show it only while printing.
    root.style.display = 'none';
    document.body.appendChild(root);
  }
  return root;
}

/** Renders the comprobante in both formats where printInvoice finds it (and nowhere on screen). */
export function PrintableInvoice(props: Props) {
  const [root] = useState(invoiceRoot);
  return createPortal(
    <div className="invoice-print">
      <style>{INVOICE_PRINT_CSS}</style>
      <div className="ticket-80">
        <InvoiceDocument {...props} format="80mm" />
      </div>
      <div className="ticket-a4">
        <InvoiceDocument {...props} format="a4" />
      </div>
    </div>,
    root,
  );
}

/** Opens the print dialog for the mounted PrintableInvoice (not the ticket beside it). */
export function printInvoice(format: TicketFormat) {
  document.body.classList.add('printing-invoice');
  const done = () => {
    document.body.classList.remove('printing-invoice');
    window.removeEventListener('afterprint', done);
  };
  window.addEventListener('afterprint', done);
  printTicket(format);
  setTimeout(done, 1000);
}
