import { FileText } from 'lucide-react';
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
