import { useState } from 'react';
import { useNavigate } from 'react-router';
import type {
  ConvertirDestino,
  ConvertirPrecios,
  Presupuesto,
  PresupuestoConvertirInput,
} from '@mostrador/shared/presupuestos';
import { useBusiness } from '@/app/business-context';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney } from '@/lib/format';
import { MedioPagoField, usePagoDocumento } from './pago-documento';
import { useConvertir } from './presupuestos.api';

/** «Convertir en venta / en remito»: which prices (quoted or today's) and, for a sale, how it is paid. */
export function ConvertirDialog({
  presupuesto: p,
  destino,
  onClose,
}: {
  presupuesto: Presupuesto;
  destino: ConvertirDestino;
  onClose: () => void;
}) {
  const { formatting } = useBusiness();
  const navigate = useNavigate();
  const convertir = useConvertir(p.id);
  const vencido = p.estado === 'vencido';
  const [precios, setPrecios] = useState<ConvertirPrecios>(vencido ? 'actuales' : 'presupuesto');
  const pago = usePagoDocumento();
  const [error, setError] = useState<string | null>(null);

  async function submit(e: React.FormEvent) {
    e.preventDefault();
    setError(null);
    const pagos = destino === 'venta' ? pago.body(precios === 'presupuesto' ? Math.round(p.total * 100) : null) : null;
    if (pagos && !pagos.ok) return setError(pagos.error);
    try {
      const r = await convertir.mutateAsync({
        destino,
        precios,
        ...(pagos?.ok ? pagos.body : {}),
      } as PresupuestoConvertirInput);
      onClose();
      if (r.remito) navigate(`/remitos/${r.remito.id}`);
    } catch (err) {
      setError(errorMessage(err, 'No se pudo convertir el presupuesto.'));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={destino === 'venta' ? 'Convertir en venta' : 'Convertir en remito'}
      description={
        destino === 'venta'
          ? 'Se registra como una venta del punto de venta: descuenta stock, entra en la caja y se factura si corresponde.'
          : 'La mercadería sale del stock al entregarla; la facturás después desde Remitos.'
      }
      className="max-w-xl"
    >
      <form className="space-y-4" onSubmit={(e) => void submit(e)}>
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-700">Precios</legend>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="precios"
              value="presupuesto"
              checked={precios === 'presupuesto'}
              disabled={vencido}
              onChange={() => setPrecios('presupuesto')}
              className="mt-0.5"
            />
            <span>
              Los del presupuesto ({formatMoney(p.total, formatting)})
              {vencido && (
                <span className="block text-xs text-amber-700">
                  Venció el {formatDate(p.vence, formatting)}: solo a precios de hoy.
                </span>
              )}
            </span>
          </label>
          <label className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name="precios"
              value="actuales"
              checked={precios === 'actuales'}
              onChange={() => setPrecios('actuales')}
              className="mt-0.5"
            />
            <span>Los de hoy, según la lista del cliente</span>
          </label>
        </fieldset>
        {destino === 'venta' && (
          <MedioPagoField
            id="conv-medio"
            pago={pago}
            totalCents={precios === 'presupuesto' ? Math.round(p.total * 100) : null}
          />
        )}
        <FormActions
          error={error}
          busy={convertir.isPending}
          onCancel={onClose}
          submitLabel={destino === 'venta' ? 'Registrar la venta' : 'Crear el remito'}
        />
      </form>
    </Dialog>
  );
}
