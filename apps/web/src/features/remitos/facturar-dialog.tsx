import { useState } from 'react';
import type { ConvertirPrecios } from '@mostrador/shared/presupuestos';
import type { RemitoResumen, RemitosFacturados, RemitosFacturarInput } from '@mostrador/shared/remitos';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { errorMessage } from '@/lib/api';
import { formatMoney } from '@/lib/format';
import { MedioPagoField, usePagoDocumento } from '../presupuestos/pago-documento';
import { useFacturarRemitos } from './remitos.api';

/**
 * «Facturar remitos»: one sale for the chosen pending remitos of one customer (and its invoice when
 * the business invoices), without moving stock again.
 */
export function FacturarDialog({ remitos, onClose }: { remitos: RemitoResumen[]; onClose: () => void }) {
  const { formatting } = useBusiness();
  const facturar = useFacturarRemitos();
  const [precios, setPrecios] = useState<ConvertirPrecios>('presupuesto');
  const pago = usePagoDocumento();
  const [error, setError] = useState<string | null>(null);
  const [hecho, setHecho] = useState<RemitosFacturados | null>(null);
  const total = remitos.reduce((s, r) => s + Math.round(r.total * 100), 0);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    const pagos = pago.body(precios === 'presupuesto' ? total : null);
    if (!pagos.ok) return setError(pagos.error);
    try {
      setHecho(
        await facturar.mutateAsync({
          remito_ids: remitos.map((r) => r.id),
          precios,
          ...pagos.body,
        } as RemitosFacturarInput),
      );
    } catch (err) {
      setError(errorMessage(err, 'No se pudieron facturar los remitos.'));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={remitos.length === 1 ? `Facturar el remito #${remitos[0].numero}` : `Facturar ${remitos.length} remitos`}
      description={`${remitos[0]?.cliente_nombre ?? ''}: una sola venta, sin mover el stock otra vez (ya salió con los remitos).`}
      className="max-w-xl"
    >
      {hecho ? (
        <div className="space-y-4">
          <p role="status" className="rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
            Venta #{hecho.venta.numero} registrada por {formatMoney(hecho.venta.total, formatting)}.
          </p>
          {hecho.venta.sin_factura && <p className="text-sm text-amber-700">{hecho.venta.sin_factura}</p>}
          <div className="flex justify-end">
            <Button onClick={onClose}>Listo</Button>
          </div>
        </div>
      ) : (
        <form className="space-y-4" onSubmit={(e) => void submit(e)}>
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 text-sm">
            {remitos.map((r) => (
              <li key={r.id} className="flex justify-between px-3 py-2">
                <span>Remito #{r.numero}</span>
                <span className="tabular-nums">{formatMoney(r.total, formatting)}</span>
              </li>
            ))}
            <li className="flex justify-between px-3 py-2 font-semibold">
              <span>Total a sus precios</span>
              <span className="tabular-nums">{formatMoney(total / 100, formatting)}</span>
            </li>
          </ul>
          <fieldset className="space-y-2">
            <legend className="text-sm font-medium text-slate-700">Precios</legend>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="fprecios"
                checked={precios === 'presupuesto'}
                onChange={() => setPrecios('presupuesto')}
              />
              Los de los remitos
            </label>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="radio"
                name="fprecios"
                checked={precios === 'actuales'}
                onChange={() => setPrecios('actuales')}
              />
              Los de hoy, según la lista del cliente
            </label>
          </fieldset>
          <MedioPagoField id="fact-medio" pago={pago} totalCents={precios === 'presupuesto' ? total : null} />
          <FormActions error={error} busy={facturar.isPending} onCancel={onClose} submitLabel="Facturar" />
        </form>
      )}
    </Dialog>
  );
}
