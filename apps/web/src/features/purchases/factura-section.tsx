import { Plus, Trash2 } from 'lucide-react';
import {
  useFieldArray,
  useWatch,
  type Control,
  type FieldErrors,
  type UseFormGetValues,
  type UseFormRegister,
  type UseFormSetValue,
} from 'react-hook-form';
import {
  ALICUOTA_LABELS,
  ALICUOTAS_IVA,
  centsToNumber,
  FACTURA_TIPO_LABELS,
  FACTURA_TIPOS,
  ivaOf,
  type AlicuotaCompra,
  type Factura,
  type FacturaTipo,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select } from '@/components/ui/input';
import { Card } from '@/components/ui/misc';
import { cn } from '@/lib/cn';
import { decimalText, readDecimal } from '@/lib/decimal-input';
import { formatMoney } from '@/lib/format';

/** The supplier's invoice as typed (decision 0021): every amount a text read the es-AR way. */
export interface FacturaValues {
  on: boolean;
  tipo: FacturaTipo;
  punto_venta: string;
  numero: string;
  fecha: string;
  iva: { alicuota: AlicuotaCompra; neto: string; iva: string }[];
  no_gravado: string;
  exento: string;
  percepcion_iva: string;
  percepcion_iibb: string;
  otros_impuestos: string;
  total: string;
}

const AMOUNTS = ['no_gravado', 'exento', 'percepcion_iva', 'percepcion_iibb', 'otros_impuestos'] as const;
const AMOUNT_LABELS: Record<(typeof AMOUNTS)[number], string> = {
  no_gravado: 'No gravado',
  exento: 'Exento',
  percepcion_iva: 'Percepción IVA',
  percepcion_iibb: 'Percepción IIBB',
  otros_impuestos: 'Otros impuestos',
};

/** An amount as typed, in cents (0 when empty, null while it is not a number). */
const cents = (t: string | undefined): number | null => {
  const r = readDecimal(t ?? '', 'money');
  return r.ok ? Math.round((r.value ?? 0) * 100) : null;
};

export function facturaValues(f: Factura | null | undefined, today: string): FacturaValues {
  const m = (v: number | undefined) => (v ? decimalText(v, 'money') : '');
  return {
    on: Boolean(f),
    tipo: f?.tipo ?? 'A',
    punto_venta: f ? String(f.punto_venta) : '',
    numero: f ? String(f.numero) : '',
    fecha: f?.fecha ?? today,
    iva: f
      ? f.iva.map((i) => ({ alicuota: i.alicuota, neto: m(i.neto), iva: m(i.iva) }))
      : [{ alicuota: '21', neto: '', iva: '' }],
    no_gravado: m(f?.no_gravado),
    exento: m(f?.exento),
    percepcion_iva: m(f?.percepcion_iva),
    percepcion_iibb: m(f?.percepcion_iibb),
    otros_impuestos: m(f?.otros_impuestos),
    total: m(f?.total),
  };
}

/** The invoice as the API takes it (numbers), or null when the section is off. */
export function facturaBody(v: FacturaValues) {
  if (!v.on) return null;
  const n = (t: string) => centsToNumber(cents(t) ?? 0);
  const discriminates = v.tipo === 'A';
  return {
    tipo: v.tipo,
    punto_venta: v.punto_venta.trim(),
    numero: v.numero.trim(),
    fecha: v.fecha,
    iva: discriminates
      ? v.iva
          .filter((i) => i.neto.trim() || i.iva.trim())
          .map((i) => ({ alicuota: i.alicuota, neto: n(i.neto), iva: n(i.iva) }))
      : [],
    no_gravado: n(v.no_gravado),
    exento: n(v.exento),
    percepcion_iva: n(v.percepcion_iva),
    percepcion_iibb: n(v.percepcion_iibb),
    otros_impuestos: n(v.otros_impuestos),
    total: v.total.trim() === '' ? null : n(v.total),
  };
}

interface Props {
  control: Control<{ fp: FacturaValues }>;
  register: UseFormRegister<{ fp: FacturaValues }>;
  setValue: UseFormSetValue<{ fp: FacturaValues }>;
  getValues: UseFormGetValues<{ fp: FacturaValues }>;
  errors?: FieldErrors<{ fp: FacturaValues }>['fp'];
  /** The lines' total, to compare with the invoice's net. */
  linesCents: number;
}

/** "Factura del proveedor": optional, with the computed total and the difference live. */
export function FacturaSection({ control, register, setValue, getValues, errors, linesCents }: Props) {
  const { formatting } = useBusiness();
  const fp = useWatch({ control, name: 'fp' });
  const { fields, append, remove } = useFieldArray({ control, name: 'fp.iva' });
  const money = (c: number) => formatMoney(c / 100, formatting);
  const a = fp?.tipo === 'A';
  const rows = a ? (fp?.iva ?? []) : [];
  const sum =
    rows.reduce((s, r) => s + (cents(r.neto) ?? 0) + (cents(r.iva) ?? 0), 0) +
    AMOUNTS.reduce((s, k) => s + (cents(fp?.[k]) ?? 0), 0);
  const total = cents(fp?.total);
  const diff = total === null || (fp?.total ?? '').trim() === '' ? null : total - sum;
  const neto = rows.reduce((s, r) => s + (cents(r.neto) ?? 0), 0);
  const usedRates = new Set(rows.map((r) => r.alicuota));
  const nextRate = ALICUOTAS_IVA.find((r) => !usedRates.has(r));

  return (
    <Card>
      <label className="flex items-center gap-2 text-base font-semibold text-slate-900">
        <input type="checkbox" className="accent-blue-600" {...register('fp.on')} />
        Factura del proveedor
      </label>
      {!fp?.on ? (
        <p className="mt-1 text-sm text-slate-500">
          Opcional: cargá el comprobante para el Libro IVA Compras. Con factura, el total de la compra es el de la
          factura.
        </p>
      ) : (
        <div className="mt-4 space-y-4" data-testid="factura-proveedor">
          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Field id="fp-tipo" label="Tipo" required error={errors?.tipo?.message}>
              <Select id="fp-tipo" {...register('fp.tipo')}>
                {FACTURA_TIPOS.map((t) => (
                  <option key={t} value={t}>
                    {FACTURA_TIPO_LABELS[t]}
                  </option>
                ))}
              </Select>
            </Field>
            <Field id="fp-pv" label="Punto de venta" required error={errors?.punto_venta?.message}>
              <Input id="fp-pv" inputMode="numeric" autoComplete="off" {...register('fp.punto_venta')} />
            </Field>
            <Field id="fp-numero" label="Número" required error={errors?.numero?.message}>
              <Input id="fp-numero" inputMode="numeric" autoComplete="off" {...register('fp.numero')} />
            </Field>
            <Field id="fp-fecha" label="Fecha de la factura" required error={errors?.fecha?.message}>
              <Input id="fp-fecha" type="date" {...register('fp.fecha')} />
            </Field>
          </div>

          {a ? (
            <fieldset>
              <legend className="mb-2 text-sm font-medium text-slate-700">Neto gravado e IVA por alícuota</legend>
              <p className="mb-2 text-xs text-slate-500">
                En una factura A, el costo de cada producto se carga sin IVA (el IVA es crédito fiscal).
              </p>
              <ul className="space-y-2" aria-label="Alícuotas de IVA">
                {fields.map((f, i) => {
                  const r = rows[i];
                  const netoC = cents(r?.neto);
                  const expected = r && netoC !== null ? ivaOf(netoC, r.alicuota) : null;
                  const e = errors?.iva?.[i];
                  return (
                    <li key={f.id} className="grid grid-cols-[7rem_1fr_1fr_2.5rem] items-start gap-2">
                      <Select aria-label={`Alícuota ${i + 1}`} {...register(`fp.iva.${i}.alicuota`)}>
                        {ALICUOTAS_IVA.map((al) => (
                          <option key={al} value={al}>
                            {ALICUOTA_LABELS[al]}
                          </option>
                        ))}
                      </Select>
                      <div>
                        <Input
                          aria-label={`Neto gravado ${ALICUOTA_LABELS[r?.alicuota ?? '21']}`}
                          inputMode="decimal"
                          autoComplete="off"
                          {...register(`fp.iva.${i}.neto`, {
                            // Leaving the net with the IVA empty proposes neto × rate (editable).
                            onBlur: () => {
                              const row = getValues(`fp.iva.${i}`);
                              const n = cents(row.neto);
                              if (row.iva.trim() || n === null || !row.neto.trim()) return;
                              setValue(`fp.iva.${i}.iva`, decimalText(ivaOf(n, row.alicuota) / 100, 'money'));
                            },
                          })}
                        />
                      </div>
                      <div>
                        <Input
                          aria-label={`IVA ${ALICUOTA_LABELS[r?.alicuota ?? '21']}`}
                          inputMode="decimal"
                          autoComplete="off"
                          placeholder={expected !== null ? decimalText(expected / 100, 'money') : undefined}
                          aria-invalid={Boolean(e?.iva)}
                          // The proposed IVA is selected on entering, so typing replaces it.
                          onFocus={(ev) => ev.target.select()}
                          {...register(`fp.iva.${i}.iva`)}
                        />
                        {e?.iva?.message && <p className="mt-1 text-xs text-red-600">{e.iva.message}</p>}
                      </div>
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Quitar alícuota ${i + 1}`}
                        onClick={() => remove(i)}
                      >
                        <Trash2 className="h-4 w-4 text-red-600" />
                      </Button>
                    </li>
                  );
                })}
              </ul>
              {nextRate && (
                <Button
                  variant="secondary"
                  className="mt-2"
                  onClick={() => append({ alicuota: nextRate, neto: '', iva: '' })}
                >
                  <Plus className="h-4 w-4" /> Agregar alícuota
                </Button>
              )}
              {errors?.iva?.message && <p className="mt-1 text-xs text-red-600">{errors.iva.message}</p>}
            </fieldset>
          ) : (
            <p className="text-sm text-slate-500">
              {FACTURA_TIPO_LABELS[fp.tipo]}: el IVA no se discrimina ni se toma como crédito. Cargá el importe en «No
              gravado» y el costo de cada producto con IVA incluido.
            </p>
          )}

          <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
            {AMOUNTS.map((k) => (
              <Field key={k} id={`fp-${k}`} label={AMOUNT_LABELS[k]} error={errors?.[k]?.message}>
                <Input id={`fp-${k}`} inputMode="decimal" autoComplete="off" {...register(`fp.${k}`)} />
              </Field>
            ))}
            <Field id="fp-total" label="Total de la factura" required error={errors?.total?.message}>
              <Input id="fp-total" inputMode="decimal" autoComplete="off" {...register('fp.total')} />
            </Field>
          </div>

          <dl className="grid gap-1 rounded-lg bg-slate-50 p-3 text-sm sm:grid-cols-3" aria-live="polite">
            <div>
              <dt className="text-slate-500">Suma de los importes</dt>
              <dd className="font-semibold tabular-nums" data-testid="fp-suma">
                {money(sum)}
              </dd>
            </div>
            <div>
              <dt className="text-slate-500">Diferencia con el total</dt>
              <dd
                className={cn('font-semibold tabular-nums', diff === 0 ? 'text-emerald-700' : 'text-red-700')}
                data-testid="fp-diferencia"
              >
                {diff === null ? '—' : diff === 0 ? 'Cuadra' : money(diff)}
              </dd>
            </div>
            {a && (
              <div>
                <dt className="text-slate-500">Neto gravado / líneas</dt>
                <dd className="tabular-nums">
                  {money(neto)} / {money(linesCents)}
                </dd>
              </div>
            )}
          </dl>
        </div>
      )}
    </Card>
  );
}
