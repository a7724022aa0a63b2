import { chequeRecibidoInput, type ChequeRecibidoInput } from '@mostrador/shared/cheques';
import { Field, Input } from '@/components/ui/input';

/** A cheque's data as typed (the POS and the cobro dialog ask for it when the medio is a cheque). */
export interface ChequeDraft {
  banco: string;
  numero: string;
  fecha_pago: string;
  fecha_emision: string;
  librador_nombre: string;
  librador_cuit: string;
  electronico: boolean;
}

export const EMPTY_CHEQUE: ChequeDraft = {
  banco: '',
  numero: '',
  fecha_pago: '',
  fecha_emision: '',
  librador_nombre: '',
  librador_cuit: '',
  electronico: false,
};

export type ChequeErrors = Partial<Record<keyof ChequeDraft, string>>;

/**
 * The draft checked with the API's own rules: what to send, or a Spanish message per field. An
 * own cheque (`propio`) has no librador to ask: the business issues it.
 */
export function readCheque(
  d: ChequeDraft,
  propio = false,
): { ok: true; value: ChequeRecibidoInput } | { ok: false; errors: ChequeErrors } {
  const r = chequeRecibidoInput.safeParse(
    propio ? { ...d, librador_nombre: 'propio', librador_cuit: '20-00000000-1' } : d,
  );
  if (r.success) {
    const value = { ...d, fecha_emision: d.fecha_emision || null };
    return { ok: true, value: propio ? { ...value, librador_nombre: null, librador_cuit: null } : value };
  }
  const errors: ChequeErrors = {};
  for (const i of r.error.issues) {
    const k = i.path[0] as keyof ChequeDraft;
    errors[k] ??=
      k === 'fecha_pago' && !d.fecha_pago ? 'Indicá la fecha de pago.' : (requiredMessage(k, d) ?? i.message);
  }
  return { ok: false, errors };
}

const REQUIRED: Partial<Record<keyof ChequeDraft, string>> = {
  banco: 'Indicá el banco.',
  numero: 'Indicá el número del cheque.',
  librador_nombre: 'Indicá quién libra el cheque.',
  librador_cuit: 'Indicá el CUIT del librador.',
};
const requiredMessage = (k: keyof ChequeDraft, d: ChequeDraft) =>
  typeof d[k] === 'string' && !(d[k] as string).trim() ? REQUIRED[k] : undefined;

/** The fields in the order a cheque is read: bank and number, dates, who issues it. */
export function ChequeFields({
  value,
  onChange,
  errors,
  idPrefix,
  propio = false,
}: {
  value: ChequeDraft;
  onChange: (d: ChequeDraft) => void;
  errors: ChequeErrors;
  idPrefix: string;
  /** An own cheque: no librador nor CUIT to ask. */
  propio?: boolean;
}) {
  const set = (patch: Partial<ChequeDraft>) => onChange({ ...value, ...patch });
  const id = (k: string) => `${idPrefix}-${k}`;
  const text = (k: keyof ChequeDraft, label: string, extra: { inputMode?: 'numeric'; placeholder?: string } = {}) => (
    <Field id={id(k)} label={label} required error={errors[k]}>
      <Input
        id={id(k)}
        value={value[k] as string}
        aria-invalid={Boolean(errors[k])}
        autoComplete="off"
        onChange={(e) => set({ [k]: e.target.value })}
        {...extra}
      />
    </Field>
  );
  return (
    <fieldset className="space-y-3 rounded-lg border border-slate-200 p-3" data-testid={`${idPrefix}-datos`}>
      <legend className="px-1 text-sm font-medium text-slate-700">Datos del cheque</legend>
      <div className="grid gap-3 sm:grid-cols-2">
        {text('banco', 'Banco', { placeholder: 'Banco Nación' })}
        {text('numero', 'Número', { inputMode: 'numeric' })}
        <Field id={id('fecha_pago')} label="Fecha de pago" required error={errors.fecha_pago}>
          <Input
            id={id('fecha_pago')}
            type="date"
            value={value.fecha_pago}
            aria-invalid={Boolean(errors.fecha_pago)}
            onChange={(e) => set({ fecha_pago: e.target.value })}
          />
        </Field>
        <Field id={id('fecha_emision')} label="Fecha de emisión" error={errors.fecha_emision}>
          <Input
            id={id('fecha_emision')}
            type="date"
            value={value.fecha_emision}
            onChange={(e) => set({ fecha_emision: e.target.value })}
          />
        </Field>
        {!propio && text('librador_nombre', 'Librador')}
        {!propio && text('librador_cuit', 'CUIT del librador', { inputMode: 'numeric', placeholder: '30-12345678-9' })}
      </div>
      <label className="flex min-h-11 items-center gap-2 text-sm text-slate-700">
        <input
          type="checkbox"
          className="h-4 w-4"
          checked={value.electronico}
          onChange={(e) => set({ electronico: e.target.checked })}
        />
        E-cheq (cheque electrónico)
      </label>
    </fieldset>
  );
}
