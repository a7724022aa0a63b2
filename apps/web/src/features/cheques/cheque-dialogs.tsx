import { useState } from 'react';
import {
  chequeAccionLabel,
  CHEQUE_TIPO_LABELS,
  type Cheque,
  type ChequeAccion,
  type ChequeTipo,
} from '@mostrador/shared/cheques';
import { useBusiness } from '@/app/business-context';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { FormActions } from '@/components/ui/form-actions';
import { useCustomers } from '@/features/customers/customers.api';
import { useSupplierOptions } from '@/features/suppliers/suppliers.api';
import { errorMessage } from '@/lib/api';
import { readDecimal } from '@/lib/decimal-input';
import { formatDate, formatMoney, todayIn } from '@/lib/format';
import { ChequeFields, EMPTY_CHEQUE, readCheque, type ChequeErrors } from './cheque-fields';
import { useChequeAccion, useCreateCheque, type AccionBody } from './cheques.api';

/** What each action does to the money, said before confirming it. */
const EFECTO: Record<ChequeAccion, (c: Cheque) => string> = {
  depositar: () => 'El cheque pasa a depositado. El ingreso se registra cuando el banco lo acredite.',
  endosar: () =>
    'El cheque paga lo que le debés al proveedor, empezando por lo más viejo. Se registra el ingreso del cliente y el pago al proveedor.',
  cobrar: (c) =>
    c.tipo === 'propio'
      ? 'El banco debitó el cheque: se registra el egreso en Finanzas.'
      : 'El banco acreditó el cheque: se registra el ingreso en Finanzas.',
  rechazar: (c) =>
    `${c.cliente ? `El monto y los gastos vuelven a la cuenta corriente de ${c.cliente.nombre}.` : 'El cheque no tiene cliente: solo se registran los gastos.'}${
      c.estado === 'endosado' ? ' El proveedor vuelve a tener la deuda que el cheque había pagado.' : ''
    }`,
  anular: (c) =>
    c.tipo === 'propio'
      ? 'El cheque queda anulado y el proveedor vuelve a tener la deuda que había pagado.'
      : 'El cheque queda anulado y sale de la cartera.',
};

/** Confirms a change of state, asking what it needs (the supplier, the fees and the reason). */
export function ChequeAccionDialog({
  cheque,
  accion,
  onClose,
}: {
  cheque: Cheque | null;
  accion: ChequeAccion | null;
  onClose: () => void;
}) {
  const open = cheque !== null && accion !== null;
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => !o && onClose()}
      title={accion && cheque ? `${chequeAccionLabel(cheque.tipo, accion)}: cheque N° ${cheque.numero}` : ''}
    >
      {open && <AccionForm key={`${cheque.id}-${accion}`} cheque={cheque} accion={accion} onDone={onClose} />}
    </Dialog>
  );
}

function AccionForm({ cheque, accion, onDone }: { cheque: Cheque; accion: ChequeAccion; onDone: () => void }) {
  const { formatting } = useBusiness();
  const mutation = useChequeAccion();
  const suppliers = useSupplierOptions();
  const [fecha, setFecha] = useState(() => todayIn(formatting.timezone));
  const [proveedor, setProveedor] = useState('');
  const [gastos, setGastos] = useState('');
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const body: AccionBody = { fecha };
        if (accion === 'endosar') {
          if (!proveedor) return setError('Elegí el proveedor al que le pasás el cheque.');
          body.proveedor_id = proveedor;
        }
        if (accion === 'rechazar') {
          const g = readDecimal(gastos, 'money');
          if (!g.ok) return setError(`Gastos bancarios: ${g.message}`);
          if (!motivo.trim()) return setError('Indicá el motivo del rechazo.');
          body.gastos_bancarios = g.value ?? 0;
        }
        if (motivo.trim()) body.motivo = motivo.trim();
        setError(null);
        try {
          await mutation.mutateAsync({ id: cheque.id, accion, body });
          onDone();
        } catch (err) {
          setError(errorMessage(err, 'No se pudo cambiar el estado del cheque.'));
        }
      }}
    >
      <p className="text-sm text-slate-600">
        {cheque.banco} N° {cheque.numero} · {formatMoney(cheque.monto, formatting)} · vence el{' '}
        {formatDate(cheque.fecha_pago, formatting)}
        {cheque.librador_nombre ? ` · ${cheque.librador_nombre}` : ''}
      </p>
      <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{EFECTO[accion](cheque)}</p>
      {accion === 'endosar' && (
        <Field id="ch-proveedor" label="Proveedor" required>
          <Select
            id="ch-proveedor"
            value={proveedor}
            onChange={(e) => {
              setProveedor(e.target.value);
              setError(null);
            }}
            autoFocus
          >
            <option value="">Elegí el proveedor</option>
            {(suppliers.data?.rows ?? []).map((s) => (
              <option key={s.id} value={s.id}>
                {s.nombre}
              </option>
            ))}
          </Select>
        </Field>
      )}
      {accion === 'rechazar' && (
        <Field id="ch-gastos" label="Gastos bancarios ($)" hint="Lo que cobró el banco por el rechazo.">
          <Input
            id="ch-gastos"
            inputMode="decimal"
            value={gastos}
            onChange={(e) => setGastos(e.target.value)}
            autoFocus
          />
        </Field>
      )}
      <Field id="ch-fecha" label="Fecha" required>
        <Input id="ch-fecha" type="date" value={fecha} onChange={(e) => setFecha(e.target.value)} />
      </Field>
      {(accion === 'rechazar' || accion === 'anular') && (
        <Field id="ch-motivo" label="Motivo" required={accion === 'rechazar'}>
          <Textarea id="ch-motivo" rows={2} value={motivo} onChange={(e) => setMotivo(e.target.value)} />
        </Field>
      )}
      <FormActions
        error={error}
        busy={mutation.isPending}
        onCancel={onDone}
        submitLabel={chequeAccionLabel(cheque.tipo, accion)}
      />
    </form>
  );
}

/** Registers a cheque by hand: a third party's into the cartera, or one of ours given to a supplier. */
export function NewChequeDialog({
  open,
  onOpenChange,
  tipo,
}: {
  open: boolean;
  onOpenChange: (o: boolean) => void;
  tipo: ChequeTipo;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={tipo === 'propio' ? 'Nuevo cheque propio' : 'Nuevo cheque de terceros'}
      className="max-w-2xl"
    >
      {open && <NewChequeForm tipo={tipo} onDone={() => onOpenChange(false)} />}
    </Dialog>
  );
}

function NewChequeForm({ tipo, onDone }: { tipo: ChequeTipo; onDone: () => void }) {
  const create = useCreateCheque();
  const suppliers = useSupplierOptions();
  const customers = useCustomers({ limit: 500, offset: 0 }, tipo === 'tercero');
  const [datos, setDatos] = useState({ ...EMPTY_CHEQUE });
  const [errors, setErrors] = useState<ChequeErrors>({});
  const [monto, setMonto] = useState('');
  const [persona, setPersona] = useState('');
  const [error, setError] = useState<string | null>(null);
  const propio = tipo === 'propio';
  return (
    <form
      className="space-y-4"
      onSubmit={async (e) => {
        e.preventDefault();
        const checked = readCheque(datos, propio);
        const m = readDecimal(monto, 'money');
        if (!checked.ok) {
          setErrors(checked.errors);
          document.getElementById(`nuevo-${Object.keys(checked.errors)[0]}`)?.focus();
          return;
        }
        if (!m.ok || !m.value) return setError(m.ok ? 'Indicá el monto del cheque.' : `Monto: ${m.message}`);
        setErrors({});
        setError(null);
        try {
          await create.mutateAsync({
            tipo,
            ...checked.value,
            monto: m.value,
            ...(persona ? (propio ? { proveedor_id: persona } : { cliente_id: persona }) : {}),
          });
          onDone();
        } catch (err) {
          setError(errorMessage(err, 'No se pudo registrar el cheque.'));
        }
      }}
    >
      <p className="text-sm text-slate-600">
        {CHEQUE_TIPO_LABELS[tipo]}:{' '}
        {propio
          ? 'si elegís el proveedor, el cheque paga lo que le debés; el egreso se registra cuando el banco lo debite.'
          : 'entra a la cartera; el ingreso se registra cuando el banco lo acredite o lo endoses.'}
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <Field id="nuevo-monto" label="Monto ($)" required>
          <Input
            id="nuevo-monto"
            inputMode="decimal"
            value={monto}
            onChange={(e) => setMonto(e.target.value)}
            autoFocus
          />
        </Field>
        <Field id="nuevo-persona" label={propio ? 'Proveedor' : 'Cliente'}>
          <Select id="nuevo-persona" value={persona} onChange={(e) => setPersona(e.target.value)}>
            <option value="">{propio ? 'Sin proveedor' : 'Sin cliente'}</option>
            {(propio ? (suppliers.data?.rows ?? []) : (customers.data?.rows ?? [])).map(
              (p: { id: string; nombre: string; apellido?: string | null }) => (
                <option key={p.id} value={p.id}>
                  {[p.nombre, p.apellido].filter(Boolean).join(' ')}
                </option>
              ),
            )}
          </Select>
        </Field>
      </div>
      <ChequeFields
        value={datos}
        onChange={(d) => {
          setDatos(d);
          setErrors({});
        }}
        errors={errors}
        idPrefix="nuevo"
        propio={propio}
      />
      <FormActions error={error} busy={create.isPending} onCancel={onDone} submitLabel="Registrar cheque" />
    </form>
  );
}
