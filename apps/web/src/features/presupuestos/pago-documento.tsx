import { useState } from 'react';
import { MEDIO_TIPO_CODE, type MedioPago } from '@mostrador/shared/caja';
import type { PaymentMethod } from '@mostrador/shared/payment-methods';
import type { ChequeRecibidoInput } from '@mostrador/shared/cheques';
import { useBusiness } from '@/app/business-context';
import { Field, Select } from '@/components/ui/input';
import { formatMoney } from '@/lib/format';
import { ChequeFields, EMPTY_CHEQUE, readCheque, type ChequeDraft, type ChequeErrors } from '../cheques/cheque-fields';
import { useMedios } from '../caja/caja.api';
import { newKey } from '../pos/cart';
import { singlePlan, splitPlan, type SplitRow } from '../pos/payments';
import { medioLabel, PaymentsPanel } from '../pos/payments-panel';

/*
 * How a sale made from a presupuesto or from remitos is paid (issue 37): one of the business's
 * medios or several parts, as at the counter, and the cheque's data when a part is a cheque (it
 * goes to the cartera). With the total known (the document's prices) it goes as `pagos`; at
 * today's prices the total is known only when the server prices it, so only one medio goes, as
 * `metodo_pago`, and neither the cuenta corriente, a cheque nor a split are offered.
 */

/** Medios a document's sale may be paid with (a Mercado Pago QR needs its order at the counter). */
const usable = (m: MedioPago) => m.activo && m.tipo !== 'qr';

type Pagos = { medio_pago_id: string; monto: number; cheque?: ChequeRecibidoInput }[];
export type PagoBody = { pagos: Pagos } | { metodo_pago: PaymentMethod };

/** Kinds that need the total: the account (a debt of that much) and a cheque (its amount). */
const needsTotal = (t: MedioPago['tipo'] | undefined) => t === 'cuenta_corriente' || t === 'cheque';

export function usePagoDocumento() {
  const { formatting } = useBusiness();
  const medios = (useMedios().data ?? []).filter(usable);
  const [medioId, setMedioId] = useState<string>('');
  const [split, setSplit] = useState<SplitRow[] | null>(null);
  const [cheque, setCheque] = useState<ChequeDraft>(EMPTY_CHEQUE);
  const [chequeErrors, setChequeErrors] = useState<ChequeErrors>({});
  const elegido = medios.find((m) => m.id === medioId) ?? medios[0];
  const tipoDe = (id: string) => medios.find((m) => m.id === id)?.tipo;
  const money = (c: number) => formatMoney(c / 100, formatting);
  const conCheque = split ? split.some((r) => tipoDe(r.medioId) === 'cheque') : elegido?.tipo === 'cheque';

  return {
    medios,
    medioId: elegido?.id ?? '',
    setMedioId,
    elegido,
    split,
    setSplit,
    cheque,
    setCheque: (d: ChequeDraft) => {
      setCheque(d);
      setChequeErrors({});
    },
    chequeErrors,
    conCheque,
    money,
    /** The plan of the parts for a known total (cents): surcharges, what is missing. */
    plan: (totalCents: number) =>
      split ? splitPlan(totalCents, medios, split, money) : singlePlan(totalCents, elegido, null),
    /**
     * The sale's payment fields for a total in cents (null: not known yet), or why it cannot be
     * sent (and the cheque's fields marked).
     */
    body(totalCents: number | null): { ok: true; body: PagoBody } | { ok: false; error: string } {
      if (!elegido) return { ok: true, body: { metodo_pago: 'efectivo' } };
      if (totalCents === null || totalCents <= 0) {
        // The parts, when typed, wait for the document's prices: today's go with one medio.
        if (needsTotal(elegido.tipo)) {
          return { ok: false, error: 'A cuenta corriente o con cheque, usá los precios del documento.' };
        }
        return { ok: true, body: { metodo_pago: MEDIO_TIPO_CODE[elegido.tipo] } };
      }
      const plan = split ? splitPlan(totalCents, medios, split, money) : singlePlan(totalCents, elegido, null);
      if (!plan.pagos) return { ok: false, error: plan.errors.plan ?? 'Revisá los montos de los pagos.' };
      const partes = plan.pagos.filter((p) => tipoDe(p.medio_pago_id) === 'cheque');
      if (partes.length > 1) {
        return { ok: false, error: 'Cobrá un solo cheque por venta: dividí el resto con otros medios.' };
      }
      if (!partes.length) return { ok: true, body: { pagos: plan.pagos } };
      const read = readCheque(cheque);
      if (!read.ok) {
        setChequeErrors(read.errors);
        document.getElementById(`doc-cheque-${Object.keys(read.errors)[0]}`)?.focus();
        return { ok: false, error: 'Completá los datos del cheque.' };
      }
      const datos = read.value;
      return {
        ok: true,
        body: {
          pagos: plan.pagos.map((p) => (tipoDe(p.medio_pago_id) === 'cheque' ? { ...p, cheque: datos } : p)),
        },
      };
    },
  };
}

export type PagoDocumento = ReturnType<typeof usePagoDocumento>;

/** The medio (or the parts) and, when one is a cheque, its data. */
export function MedioPagoField({
  id,
  pago,
  totalCents,
}: {
  id: string;
  pago: PagoDocumento;
  /** The total in cents when it is known (the document's prices); null at today's prices. */
  totalCents: number | null;
}) {
  const conocido = totalCents !== null;
  const tipo = pago.elegido?.tipo;
  const plan = totalCents !== null && pago.split ? pago.plan(totalCents) : null;
  return (
    <div className="space-y-3">
      {pago.split && conocido ? (
        <PaymentsPanel
          medios={pago.medios}
          medioId={pago.medioId}
          onMedio={pago.setMedioId}
          split={pago.split}
          onSplit={pago.setSplit}
          errors={plan?.errors ?? {}}
          status={plan?.errors.plan}
        />
      ) : (
        <Field
          id={id}
          label="Medio de pago"
          required
          error={
            !conocido && needsTotal(tipo)
              ? tipo === 'cheque'
                ? 'Con cheque, usá los precios del documento.'
                : 'A cuenta corriente, usá los precios del documento.'
              : undefined
          }
          hint={tipo === 'cuenta_corriente' ? 'Queda en la cuenta corriente del cliente.' : undefined}
        >
          <Select id={id} value={pago.medioId} onChange={(e) => pago.setMedioId(e.target.value)}>
            {pago.medios.map((m) => (
              <option key={m.id} value={m.id}>
                {medioLabel(m)}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {conocido && !pago.split && pago.medios.length > 1 && (
        <button
          type="button"
          className="min-h-11 text-sm font-medium text-blue-700 hover:underline"
          onClick={() =>
            pago.setSplit([
              { key: newKey(), medioId: pago.medioId, text: '' },
              { key: newKey(), medioId: pago.medios.find((m) => m.id !== pago.medioId)?.id ?? pago.medioId, text: '' },
            ])
          }
        >
          Dividir el pago
        </button>
      )}
      {totalCents !== null && <TotalConRecargo pago={pago} totalCents={totalCents} />}
      {conocido && pago.conCheque && (
        <ChequeFields value={pago.cheque} onChange={pago.setCheque} errors={pago.chequeErrors} idPrefix="doc-cheque" />
      )}
    </div>
  );
}

/** The total the customer pays when a medio has a surcharge or discount. */
function TotalConRecargo({ pago, totalCents }: { pago: PagoDocumento; totalCents: number }) {
  const plan = pago.plan(totalCents);
  if (!plan.pagos || plan.total === totalCents) return null;
  return (
    <p className="flex justify-between rounded-md bg-slate-50 px-3 py-2 text-sm" data-testid="doc-total-pagos">
      <span>{plan.ajuste > 0 ? 'Total con recargo' : 'Total con descuento'}</span>
      <span className="font-semibold tabular-nums">{pago.money(plan.total)}</span>
    </p>
  );
}
