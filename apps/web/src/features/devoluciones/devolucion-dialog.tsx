import { useMemo, useState, type FormEvent } from 'react';
import { lineShares, returnShare, type Devolucion } from '@mostrador/shared/devoluciones';
import type { Sale } from '@mostrador/shared/sales';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { useMedios } from '@/features/caja/caja.api';
import { useChequesEnCarteraDeVenta } from '@/features/cheques/cheques.api';
import { useCan } from '@/features/permissions/permissions.api';
import { newKey } from '@/features/pos/cart';
import { ImpresionDocumento } from '@/features/impresion/impresion-documento';
import { printTicket } from '@/features/pos/ticket';
import { errorMessage } from '@/lib/api';
import { parseDecimal, quantityText } from '@/lib/decimal';
import { formatMoney, formatNumber } from '@/lib/format';
import { DevolucionDocument, PrintableDevolucion } from './devolucion-document';
import { useCreateDevolucion, useDevoluciones } from './devoluciones.api';

const cents = (n: number) => Math.round(n * 100);
const milli = (n: number) => Math.round(n * 1000);

/**
 * Returns lines of a sale: how much of each (up to what is left), the medio the money goes back
 * by (or the customer's account) and why; the total to refund is computed as the server does.
 */
export function DevolucionDialog({
  sale,
  onClose,
  onDone,
}: {
  sale: Sale;
  onClose: () => void;
  onDone: (d: Devolucion) => void;
}) {
  const { formatting } = useBusiness();
  const medios = (useMedios().data ?? []).filter((m) => m.activo && (m.tipo !== 'cuenta_corriente' || sale.cliente_id));
  const create = useCreateDevolucion();
  const [key] = useState(newKey);
  const [qty, setQty] = useState<Record<string, string>>({});
  const [medio, setMedio] = useState(sale.pagos[0]?.medio_pago_id ?? '');
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | null>(null);
  // A cheque of the sale still in the cartera may go back itself instead of money (decision 0057).
  const can = useCan();
  const chequeMedio = sale.pagos.find((p) => p.tipo === 'cheque')?.medio_pago_id ?? null;
  const cheques =
    useChequesEnCarteraDeVenta(sale.id, Boolean(chequeMedio) && can('finanzas', 'ver')).data?.cheques ?? [];
  const [chequeId, setChequeId] = useState<string>('');
  const cheque = cheques.find((c) => c.id === chequeId) ?? null;
  const medioId = cheque
    ? chequeMedio
    : medios.some((m) => m.id === medio)
      ? medio
      : (medios.find((m) => m.tipo === 'efectivo') ?? medios[0])?.id;

  const lines = useMemo(() => {
    const shares = lineShares(
      cents(sale.total),
      sale.items.map((i) => cents(i.subtotal)),
    );
    return sale.items.map((i, n) => {
      const left = milli(i.cantidad) - milli(i.cantidad_devuelta ?? 0);
      const text = qty[i.id] ?? '';
      const q = text.trim() ? parseDecimal(text, 3) : 0;
      const problem =
        q === null ? 'Cantidad no válida.' : q > left ? `Quedan ${formatNumber(left / 1000, formatting)}.` : null;
      const monto =
        q && !problem
          ? returnShare(shares[n], milli(i.cantidad), milli(i.cantidad_devuelta ?? 0), cents(i.monto_devuelto ?? 0), q)
          : 0;
      return { item: i, left, q: q ?? 0, problem, monto };
    });
  }, [sale, qty, formatting]);
  const total = lines.reduce((s, l) => s + l.monto, 0);
  const chosen = lines.filter((l) => l.q > 0 && !l.problem);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setError(null);
    if (lines.some((l) => l.problem)) return setError('Revisá las cantidades marcadas.');
    if (!chosen.length) return setError('Elegí al menos un ítem para devolver.');
    if (!medioId) return setError('Elegí cómo devolvés el dinero.');
    try {
      const d = await create.mutateAsync({
        ventaId: sale.id,
        key,
        body: {
          items: chosen.map((l) => ({ item_id: l.item.id, cantidad: l.q / 1000 })),
          medio_pago_id: medioId,
          ...(cheque ? { cheque_id: cheque.id } : {}),
          motivo: motivo.trim() || null,
        },
      });
      onDone(d);
    } catch (err) {
      setError(errorMessage(err, 'No se pudo registrar la devolución.'));
    }
  }

  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Devolver de la venta #${sale.numero}`}
      description="Escribí cuánto vuelve de cada ítem. El stock vuelve y el dinero sale por el medio que elijas."
      className="max-w-2xl"
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <table className="w-full text-sm">
          <thead>
            <tr className="text-left text-xs text-slate-500">
              <th className="pb-1 font-medium">Ítem</th>
              <th className="pb-1 pl-2 text-right font-medium">Vendido</th>
              <th className="pb-1 pl-2 text-right font-medium">Devuelto</th>
              <th className="pb-1 pl-3 font-medium">A devolver</th>
            </tr>
          </thead>
          <tbody>
            {lines.map(({ item: i, left, problem }, n) => (
              <tr key={i.id} className="align-top">
                <td className="py-1 text-slate-800">{i.nombre}</td>
                <td className="py-1 text-right tabular-nums">{formatNumber(i.cantidad, formatting)}</td>
                <td className="py-1 text-right tabular-nums">{formatNumber(i.cantidad_devuelta ?? 0, formatting)}</td>
                <td className="py-1 pl-3">
                  <Input
                    inputMode="decimal"
                    aria-label={`A devolver de ${i.nombre}`}
                    aria-invalid={Boolean(problem)}
                    disabled={left <= 0}
                    autoFocus={n === 0}
                    className="w-24 text-right"
                    placeholder="0"
                    value={qty[i.id] ?? ''}
                    onChange={(e) => setQty({ ...qty, [i.id]: e.target.value })}
                  />
                  {problem && <p className="mt-0.5 text-xs text-red-700">{problem}</p>}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
        <Button
          variant="ghost"
          size="sm"
          onClick={() =>
            setQty(Object.fromEntries(lines.filter((l) => l.left > 0).map((l) => [l.item.id, quantityText(l.left)])))
          }
        >
          Devolver todo lo que queda
        </Button>
        {cheques.length > 0 && (
          <fieldset className="space-y-1" data-testid="devolucion-cheques">
            <legend className="text-sm font-medium text-slate-700">Qué le devolvés</legend>
            <label className="flex min-h-11 items-center gap-2 text-sm">
              <input type="radio" name="dev-que" checked={!cheque} onChange={() => setChequeId('')} />
              Dinero, por un medio de pago
            </label>
            {cheques.map((c) => (
              <label key={c.id} className="flex min-h-11 items-center gap-2 text-sm">
                <input type="radio" name="dev-que" checked={chequeId === c.id} onChange={() => setChequeId(c.id)} />
                El cheque N° {c.numero} ({c.banco}, {formatMoney(c.monto, formatting)})
              </label>
            ))}
            {cheque && cents(cheque.monto) !== total && (
              <p role="alert" className="text-xs text-amber-700">
                El cheque se devuelve solo por su monto completo: elegí los ítems que suman{' '}
                {formatMoney(cheque.monto, formatting)}, o devolvé dinero.
              </p>
            )}
          </fieldset>
        )}
        {!cheque && (
          <Field id="dev-medio" label="Devolver el dinero por">
            <Select id="dev-medio" value={medioId ?? ''} onChange={(e) => setMedio(e.target.value)}>
              {medios.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.tipo === 'cuenta_corriente' ? 'A la cuenta corriente del cliente' : m.nombre}
                </option>
              ))}
            </Select>
          </Field>
        )}
        {sale.pagos.some((p) => p.mercadopago_orden_id && p.medio_pago_id === medioId) && (
          <p className="rounded-md bg-blue-50 p-3 text-sm text-blue-900" data-testid="devolucion-mp">
            Se le devuelve al cliente por Mercado Pago, a la cuenta o tarjeta con que pagó.
          </p>
        )}
        <Field id="dev-motivo" label="Motivo">
          <Textarea
            id="dev-motivo"
            value={motivo}
            maxLength={200}
            onChange={(e) => setMotivo(e.target.value)}
            placeholder="Ej.: producto fallado"
          />
        </Field>
        <p className="flex justify-between rounded-md bg-slate-50 p-3 text-base font-semibold" aria-live="polite">
          <span>Total a devolver</span>
          <span data-testid="devolucion-total">{formatMoney(total / 100, formatting)}</span>
        </p>
        <FormActions
          error={error}
          busy={create.isPending}
          onCancel={onClose}
          submitLabel={cheque ? `Devolver el cheque N° ${cheque.numero}` : `Devolver ${formatMoney(total / 100, formatting)}`}
        />
      </form>
    </Dialog>
  );
}

/** The return just made: its document on screen, printable on 80 mm or A4. */
export function DevolucionDoneDialog({
  devolucion,
  onClose,
  fresh = true,
}: {
  devolucion: Devolucion;
  onClose: () => void;
  /** Just made (the title says so) or opened again from the sale. */
  fresh?: boolean;
}) {
  const { business, formatting } = useBusiness();
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={fresh ? `Devolución #${devolucion.numero} registrada` : `Devolución #${devolucion.numero}`}
    >
      <div className="rounded-md border border-slate-200 p-3">
        <DevolucionDocument devolucion={devolucion} business={business} formatting={formatting} format="80mm" />
      </div>
      <PrintableDevolucion devolucion={devolucion} business={business} formatting={formatting} />
      <div className="mt-4">
        <ImpresionDocumento tipo="devolucion" id={devolucion.id} auto={fresh} onNavegador={() => printTicket('80mm')} />
      </div>
      <div className="flex flex-wrap justify-end gap-3">
        <Button variant="secondary" onClick={() => printTicket('80mm')} autoFocus>
          Imprimir 80 mm
        </Button>
        <Button variant="secondary" onClick={() => printTicket('a4')}>
          Imprimir A4
        </Button>
        <Button onClick={onClose}>Listo</Button>
      </div>
    </Dialog>
  );
}

/** The returns of a sale, each one to open again (and print). */
export function SaleReturns({ ventaId, onShow }: { ventaId: string; onShow: (d: Devolucion) => void }) {
  const { formatting } = useBusiness();
  const list = useDevoluciones(ventaId).data ?? [];
  if (!list.length) return null;
  return (
    <ul className="mt-2 flex flex-wrap gap-2 text-xs" aria-label="Devoluciones de la venta">
      {list.map((d) => (
        <li key={d.id}>
          <Button size="sm" variant="ghost" onClick={() => onShow(d)}>
            Devolución #{d.numero} · {formatMoney(d.monto, formatting)}
          </Button>
        </li>
      ))}
    </ul>
  );
}
