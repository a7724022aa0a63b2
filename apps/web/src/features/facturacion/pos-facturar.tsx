import { FileText, FileWarning } from 'lucide-react';
import type { FacturarModo } from '@mostrador/shared/facturacion';
import { useFacturacionModo } from './facturacion.api';

/** How the POS invoices: 'siempre', 'elegir', or null while invoicing is not set up. */
export function useFacturarModo(): FacturarModo | null {
  const { data } = useFacturacionModo();
  return data?.listo ? data.facturar : null;
}

/** The checkout's "Facturar" checkbox (elegir) or the note that every sale is invoiced (siempre). */
export function FacturarToggle({
  modo,
  checked,
  onChange,
}: {
  modo: FacturarModo | null;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  if (!modo) return null;
  if (modo === 'siempre') {
    return (
      <p
        className="flex items-center gap-2 rounded-lg bg-blue-50 px-3 py-2 text-sm text-blue-800"
        data-testid="pos-facturar-siempre"
      >
        <FileText className="h-4 w-4" aria-hidden /> Cada venta se factura en ARCA.
      </p>
    );
  }
  return (
    <label
      htmlFor="pos-facturar"
      className="flex cursor-pointer items-center gap-2 rounded-lg border border-slate-200 px-3 py-2 text-sm font-medium text-slate-700 has-[:checked]:border-blue-300 has-[:checked]:bg-blue-50 has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-blue-500/40"
    >
      <input
        id="pos-facturar"
        type="checkbox"
        className="h-4 w-4 rounded border-slate-300 accent-blue-600"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
      />
      Facturar (factura electrónica ARCA)
    </label>
  );
}

/**
 * The sale asked for an invoice and stands without one: the record-sale answer's `sin_factura`
 * (why, and what to do), said to the cashier before the next sale.
 */
export function SinFacturaNote({ mensaje }: { mensaje: string }) {
  return (
    <div
      role="alert"
      data-testid="pos-sin-factura"
      className="mb-3 flex items-start gap-2 rounded-lg border border-red-300 bg-red-50 p-3 text-sm text-red-900"
    >
      <FileWarning className="mt-0.5 h-5 w-5 shrink-0" aria-hidden />
      <div>
        <p className="font-semibold">Sin factura electrónica</p>
        <p>{mensaje}</p>
      </div>
    </div>
  );
}
