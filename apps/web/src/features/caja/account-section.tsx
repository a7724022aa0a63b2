import { Download, Printer } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { ACCOUNT_MOVE_LABELS, type AccountMove, type Cobro, type CuentaCorriente } from '@mostrador/shared/caja';
import type { Customer } from '@mostrador/shared/customers';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { Field, Input, Select } from '@/components/ui/input';
import { useCan } from '@/features/permissions/permissions.api';
import { PrintPortal, printPage, printTicket, type TicketFormat } from '@/features/pos/ticket';
import { CompartirButton } from '@/features/impresion/compartir';
import { ImpresionDocumento } from '@/features/impresion/impresion-documento';
import { errorMessage } from '@/lib/api';
import { useDownload } from '@/lib/download';
import { cn } from '@/lib/cn';
import { INVALID_AMOUNT, parseDecimal } from '@/lib/decimal';
import { formatDateTime, formatMoney, type Formatting } from '@/lib/format';
import {
  ChequeFields,
  EMPTY_CHEQUE,
  readCheque,
  type ChequeDraft,
  type ChequeErrors,
} from '@/features/cheques/cheque-fields';
import { useCobro, useCuenta, useMedios } from './caja.api';

/** The document each account movement is numbered by. */
const MOVE_DOC: Record<AccountMove['tipo'], string> = {
  venta: 'Venta',
  anulacion: 'Anulación',
  cobro: 'Recibo',
  devolucion: 'Devolución',
  cheque_rechazado: 'Cheque',
};

/** The customer's cuenta corriente: balance, movements with the running balance, and cobros. */
export function AccountSection({ customer }: { customer: Customer }) {
  const { businessId, formatting } = useBusiness();
  const can = useCan();
  const cuenta = useCuenta(customer.id);
  const download = useDownload('No se pudo exportar el estado de cuenta.');
  const [cobrando, setCobrando] = useState(false);
  const [receipt, setReceipt] = useState<Cobro | null>(null);
  const money = (n: number) => formatMoney(n, formatting);
  const c = cuenta.data;
  if (!c) return null;
  return (
    <section aria-labelledby="cli-cuenta" className="space-y-2">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h3 id="cli-cuenta" className="text-sm font-semibold text-slate-900">
          Cuenta corriente
        </h3>
        <div className="flex gap-2">
          {c.movimientos.length > 0 && (
            <Button size="sm" variant="secondary" onClick={() => printTicket('a4')}>
              <Printer className="h-4 w-4" /> Imprimir
            </Button>
          )}
          {c.movimientos.length > 0 && (
            <Button
              size="sm"
              variant="secondary"
              loading={download.busy}
              onClick={() =>
                download.run(`/businesses/${businessId}/clientes/${customer.id}/cuenta-corriente/exportar`)
              }
            >
              <Download className="h-4 w-4" /> Estado de cuenta
            </Button>
          )}
          {c.movimientos.length > 0 && (
            <CompartirButton tipo="estado_cuenta" id={customer.id} email={customer.email} label="Compartir" />
          )}
          {can('ventas', 'editar') && c.saldo > 0 && (
            <Button size="sm" onClick={() => setCobrando(true)}>
              Registrar cobro
            </Button>
          )}
        </div>
      </div>
      <p className="text-sm">
        Debe <strong data-testid="cuenta-saldo">{money(c.saldo)}</strong>
        {c.por_cobrar > 0 && ' en cuenta corriente'}
        {c.limite_credito !== null && <span className="text-slate-500"> · límite {money(c.limite_credito)}</span>}
      </p>
      {c.por_cobrar > 0 && (
        <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="cuenta-total">
          Además tiene {c.cuentas_por_cobrar === 1 ? 'una cuenta' : `${c.cuentas_por_cobrar} cuentas`} por cobrar en
          Finanzas por {money(c.por_cobrar)}
          {c.por_cobrar_vencido > 0 && ` (${money(c.por_cobrar_vencido)} vencido)`}. En total debe{' '}
          <strong>{money(c.total_adeudado)}</strong>.
        </p>
      )}
      {c.movimientos.length === 0 ? (
        <p className="rounded-lg border border-dashed border-slate-300 p-3 text-center text-sm text-slate-500">
          Sin movimientos en cuenta corriente.
        </p>
      ) : (
        <div className="max-h-64 overflow-auto rounded-lg border border-slate-200">
          <table className="w-full text-sm" aria-label="Movimientos de la cuenta corriente">
            <thead className="sticky top-0 bg-slate-50 text-left text-slate-500">
              <tr>
                <th className="px-2 py-1 font-medium">Fecha</th>
                <th className="px-2 py-1 font-medium">Concepto</th>
                <th className="px-2 py-1 text-right font-medium">Debe</th>
                <th className="px-2 py-1 text-right font-medium">Haber</th>
                <th className="px-2 py-1 text-right font-medium">Saldo</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {c.movimientos.map((m) => (
                <tr key={`${m.tipo}-${m.referencia_id}`}>
                  <td className="px-2 py-1">{formatDateTime(m.fecha, formatting)}</td>
                  <td className="px-2 py-1">
                    {ACCOUNT_MOVE_LABELS[m.tipo]}{' '}
                    {`· ${m.tipo === 'anulacion' ? 'Venta' : MOVE_DOC[m.tipo]} #${m.numero}`}
                  </td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.debe ? money(m.debe) : ''}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{m.haber ? money(m.haber) : ''}</td>
                  <td className="px-2 py-1 text-right tabular-nums">{money(m.saldo)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {!cobrando && !receipt && (
        <PrintPortal render={(format) => <Statement cuenta={c} formatting={formatting} format={format} />} />
      )}
      <CobroDialog
        open={cobrando}
        clienteId={customer.id}
        saldo={c.saldo}
        onClose={() => setCobrando(false)}
        onDone={(k) => {
          setCobrando(false);
          setReceipt(k);
        }}
      />
      <ReceiptDialog cobro={receipt} onClose={() => setReceipt(null)} formatting={formatting} />
    </section>
  );
}

function CobroDialog({
  open,
  clienteId,
  saldo,
  onClose,
  onDone,
}: {
  open: boolean;
  clienteId: string;
  saldo: number;
  onClose: () => void;
  onDone: (k: Cobro) => void;
}) {
  const { formatting } = useBusiness();
  const medios = (useMedios().data ?? []).filter((m) => m.activo && m.tipo !== 'cuenta_corriente');
  const [monto, setMonto] = useState('');
  const [medioId, setMedioId] = useState('');
  const [errors, setErrors] = useState<{ monto?: string; form?: string }>({});
  const [cheque, setCheque] = useState<ChequeDraft>(EMPTY_CHEQUE);
  const [chequeErrors, setChequeErrors] = useState<ChequeErrors>({});
  const cobro = useCobro();
  const medio = medioId || medios[0]?.id || '';
  const conCheque = medios.find((m) => m.id === medio)?.tipo === 'cheque';
  async function submit(e: FormEvent) {
    e.preventDefault();
    const cents = parseDecimal(monto, 2);
    if (!monto.trim()) return setErrors({ monto: 'Este campo es obligatorio.' });
    if (cents === null || cents <= 0) return setErrors({ monto: INVALID_AMOUNT });
    if (cents > Math.round(saldo * 100)) {
      return setErrors({ monto: `El cobro supera lo que debe el cliente (${formatMoney(saldo, formatting)}).` });
    }
    const datos = conCheque ? readCheque(cheque) : null;
    if (datos && !datos.ok) {
      setChequeErrors(datos.errors);
      document.getElementById(`cobro-cheque-${Object.keys(datos.errors)[0]}`)?.focus();
      return;
    }
    setChequeErrors({});
    try {
      const k = await cobro.mutateAsync({
        clienteId,
        monto: cents / 100,
        medio_pago_id: medio,
        observaciones: null,
        ...(datos?.ok ? { cheque: datos.value } : {}),
      });
      setMonto('');
      setCheque(EMPTY_CHEQUE);
      setErrors({});
      onDone(k);
    } catch (err) {
      setErrors({ form: errorMessage(err, 'No se pudo registrar el cobro.') });
    }
  }
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title="Registrar cobro"
      description={`Debe ${formatMoney(saldo, formatting)}. El cobro entra en la caja abierta.`}
    >
      <form onSubmit={submit} className="space-y-4" noValidate>
        <Field id="cobro-monto" label="Monto ($)" error={errors.monto} required>
          <Input
            id="cobro-monto"
            inputMode="decimal"
            autoFocus
            value={monto}
            onChange={(e) => {
              setMonto(e.target.value);
              setErrors({});
            }}
            aria-invalid={Boolean(errors.monto)}
          />
        </Field>
        <Field id="cobro-medio" label="Medio de pago">
          <Select id="cobro-medio" value={medio} onChange={(e) => setMedioId(e.target.value)}>
            {medios.map((m) => (
              <option key={m.id} value={m.id}>
                {m.nombre}
              </option>
            ))}
          </Select>
        </Field>
        {conCheque && (
          <ChequeFields
            value={cheque}
            onChange={(d) => {
              setCheque(d);
              setChequeErrors({});
            }}
            errors={chequeErrors}
            idPrefix="cobro-cheque"
          />
        )}
        <FormActions error={errors.form ?? null} busy={cobro.isPending} onCancel={onClose} submitLabel="Cobrar" />
      </form>
    </Dialog>
  );
}

function Receipt({ cobro, formatting, format }: { cobro: Cobro; formatting: Formatting; format: TicketFormat }) {
  const { business } = useBusiness();
  const money = (n: number) => formatMoney(n, formatting);
  const narrow = format === '80mm';
  return (
    <article aria-label={`Recibo #${cobro.numero}`} className={printPage(format)}>
      <p className={cn('font-bold', narrow ? 'text-center text-sm' : 'text-xl')}>{business?.nombre ?? 'Mostrador'}</p>
      <p className={cn('font-semibold', narrow && 'text-center')}>Recibo #{cobro.numero}</p>
      <p>{formatDateTime(cobro.fecha, formatting)}</p>
      <p className="mt-2">Recibimos de {cobro.cliente_nombre}</p>
      <dl className="mt-2 space-y-0.5">
        {[
          ['Monto', money(cobro.monto)],
          ['Medio de pago', cobro.medio_nombre],
          ['Saldo anterior', money(cobro.saldo_anterior)],
          ['Saldo actual', money(cobro.saldo)],
        ].map(([k, v]) => (
          <div key={k} className="flex justify-between gap-2">
            <dt>{k}</dt>
            <dd className={k === 'Monto' ? 'font-bold' : ''}>{v}</dd>
          </div>
        ))}
      </dl>
      <p className="mt-3 text-center text-[10px]">Comprobante no válido como factura</p>
    </article>
  );
}

function ReceiptDialog({
  cobro,
  onClose,
  formatting,
}: {
  cobro: Cobro | null;
  onClose: () => void;
  formatting: Formatting;
}) {
  return (
    <Dialog
      open={Boolean(cobro)}
      onOpenChange={(o) => !o && onClose()}
      title={`Cobro #${cobro?.numero ?? ''} registrado`}
    >
      {cobro && (
        <div className="space-y-4">
          <div className="rounded-lg border border-slate-200 p-3">
            <Receipt cobro={cobro} formatting={formatting} format="80mm" />
          </div>
          <PrintPortal render={(format) => <Receipt cobro={cobro} formatting={formatting} format={format} />} />
          <ImpresionDocumento tipo="cobro" id={cobro.id} auto onNavegador={() => printTicket('80mm')} />
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => printTicket('80mm')}>
              <Printer className="h-4 w-4" /> Imprimir 80 mm
            </Button>
            <Button variant="secondary" onClick={() => printTicket('a4')}>
              <Printer className="h-4 w-4" /> Imprimir A4
            </Button>
            <CompartirButton tipo="cobro" id={cobro.id} />
            <Button onClick={onClose}>Listo</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** The estado de cuenta as printed (80 mm or A4). */
function Statement({
  cuenta,
  formatting,
  format,
}: {
  cuenta: CuentaCorriente;
  formatting: Formatting;
  format: TicketFormat;
}) {
  const { business } = useBusiness();
  const money = (n: number) => formatMoney(n, formatting);
  const narrow = format === '80mm';
  return (
    <article aria-label={`Estado de cuenta de ${cuenta.cliente_nombre}`} className={printPage(format)}>
      <p className={cn('font-bold', narrow ? 'text-center text-sm' : 'text-xl')}>{business?.nombre ?? 'Mostrador'}</p>
      <p className="font-semibold">Estado de cuenta · {cuenta.cliente_nombre}</p>
      <table className="mt-2 w-full border-collapse">
        <thead>
          <tr className="border-b border-black text-left">
            <th className="py-0.5">Fecha</th>
            <th className="py-0.5">Concepto</th>
            <th className="py-0.5 text-right">Debe</th>
            <th className="py-0.5 text-right">Haber</th>
            <th className="py-0.5 text-right">Saldo</th>
          </tr>
        </thead>
        <tbody>
          {cuenta.movimientos.map((m) => (
            <tr key={`${m.tipo}-${m.referencia_id}`}>
              <td className="py-0.5">{formatDateTime(m.fecha, formatting)}</td>
              <td className="py-0.5">{`${MOVE_DOC[m.tipo]} #${m.numero}`}</td>
              <td className="py-0.5 text-right">{m.debe ? money(m.debe) : ''}</td>
              <td className="py-0.5 text-right">{m.haber ? money(m.haber) : ''}</td>
              <td className="py-0.5 text-right">{money(m.saldo)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="mt-2 text-right font-bold">Saldo: {money(cuenta.saldo)}</p>
    </article>
  );
}
