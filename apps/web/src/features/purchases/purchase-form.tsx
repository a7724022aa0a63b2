import { ArrowLeft, PackagePlus, Trash2 } from 'lucide-react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useFieldArray, useForm, useWatch } from 'react-hook-form';
import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import {
  centsToNumber,
  lineSubtotalCents,
  milliToNumber,
  PAYMENT_CONDITION_LABELS,
  PAYMENT_CONDITIONS,
  PAYMENT_METHODS,
  paymentMethodLabel,
  purchaseForm,
  type PaymentCondition,
  type Product,
  type Purchase,
  type PurchaseOutput,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { Card, EmptyState, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { useSupplierOptions, termDays } from '@/features/suppliers/suppliers.api';
import { useCounterControls } from '@/features/permissions/permissions.api';
import { ApiError, errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { decimalResolver, decimalText, readDecimal } from '@/lib/decimal-input';
import { formatMoney, todayIn } from '@/lib/format';
import { applyServerErrors } from '@/lib/forms';
import { FacturaSection, facturaBody, facturaValues, type FacturaValues } from './factura-section';
import { ProductPicker } from './product-picker';
import { usePurchase, useSavePurchase, type PurchaseBody } from './purchases.api';

interface LineValue {
  producto_id: string;
  nombre: string;
  codigo: string | null;
  unidad: string;
  cantidad: string;
  precio_unitario: string;
}

interface Values {
  proveedor_id: string;
  proveedor_nombre: string;
  fecha: string;
  fecha_entrega: string;
  condicion_pago: PaymentCondition;
  metodo_pago: string;
  fecha_vencimiento: string;
  observaciones: string;
  recibida: boolean;
  items: LineValue[];
  /** The supplier's invoice (not `factura`: the shared schema would read its texts as numbers). */
  fp: FacturaValues;
}

const addDays = (date: string, days: number) => {
  const d = new Date(`${date}T12:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** A line's quantity as typed, in thousandths (null while it is not one). */
function lineMilli(cantidad: string): number | null {
  const q = readDecimal(cantidad, 'quantity');
  return q.ok && q.value !== null ? Math.round(q.value * 1000) : null;
}

/** A line's subtotal as typed (null while a number is incomplete). */
function lineCents(l: Pick<LineValue, 'cantidad' | 'precio_unitario'>): number | null {
  const q = lineMilli(l.cantidad);
  const p = readDecimal(l.precio_unitario, 'money');
  return q === null || !p.ok || p.value === null ? null : lineSubtotalCents(q, Math.round(p.value * 100));
}

function toValues(p: Purchase | undefined, today: string, presetSupplier: string | null): Values {
  return {
    proveedor_id: p?.proveedor_id ?? presetSupplier ?? '',
    proveedor_nombre: p && !p.proveedor_id ? (p.proveedor_nombre ?? '') : '',
    fecha: p?.fecha ?? today,
    fecha_entrega: p?.fecha_entrega ?? '',
    condicion_pago: p?.condicion_pago ?? 'contado',
    metodo_pago: p?.metodo_pago ?? 'efectivo',
    fecha_vencimiento: p?.fecha_vencimiento ?? '',
    observaciones: p?.observaciones ?? '',
    recibida: false,
    fp: facturaValues(p?.factura, p?.fecha ?? today),
    items: (p?.items ?? []).map((i) => ({
      producto_id: i.producto_id,
      nombre: i.producto_nombre,
      codigo: i.producto_codigo,
      unidad: i.unidad,
      cantidad: decimalText(i.cantidad),
      precio_unitario: decimalText(i.precio_unitario, 'money'),
    })),
  };
}

function OrderForm({ purchase }: { purchase?: Purchase }) {
  const { formatting } = useBusiness();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const suppliers = useSupplierOptions();
  const save = useSavePurchase();
  const { verCostos } = useCounterControls();
  const [formError, setFormError] = useState<string | null>(null);
  const today = todayIn(formatting.timezone);
  // The shared schema checks the typed values (numbers read the es-AR way); the body takes the
  // texts as typed and the lines' numbers as read (see onSubmit).
  const { register, handleSubmit, control, setValue, getValues, setError, setFocus, formState } = useForm<
    Values,
    unknown,
    PurchaseOutput
  >({
    resolver: decimalResolver<Values, PurchaseOutput>(purchaseForm, {
      items: { cantidad: 'quantity', precio_unitario: 'money' },
    }),
    defaultValues: toValues(purchase, today, params.get('proveedor')),
  });
  const { fields, append, remove } = useFieldArray({ control, name: 'items' });
  const items = useWatch({ control, name: 'items' });
  const condicion = useWatch({ control, name: 'condicion_pago' });
  const proveedorId = useWatch({ control, name: 'proveedor_id' });
  const err = formState.errors;
  const rows = suppliers.data?.rows ?? [];
  const options = rows.filter((s) => s.estado === 'activo' || s.id === proveedorId);

  const totalCents = useMemo(() => (items ?? []).reduce((s, l) => s + (lineCents(l) ?? 0), 0), [items]);

  // A credit purchase proposes the due date from the supplier's terms ("30 días"), else 30 days.
  const proposeDue = () => {
    if (getValues('condicion_pago') !== 'cuenta_corriente' || getValues('fecha_vencimiento')) return;
    const fecha = getValues('fecha') || today;
    const supplier = rows.find((s) => s.id === getValues('proveedor_id'));
    setValue('fecha_vencimiento', addDays(fecha, termDays(supplier?.condiciones_pago) ?? 30));
  };
  useEffect(proposeDue, [condicion]); // eslint-disable-line react-hooks/exhaustive-deps

  // The quantity of the line just added (or bumped) takes the focus once it is on screen.
  const focusLine = useRef<number | null>(null);
  useEffect(() => {
    if (focusLine.current === null) return;
    setFocus(`items.${focusLine.current}.cantidad`, { shouldSelect: true });
    focusLine.current = null;
  }, [fields, items, setFocus]);

  const addProduct = (p: Product) => {
    const at = getValues('items').findIndex((l) => l.producto_id === p.id);
    if (at >= 0) {
      const current = lineMilli(getValues(`items.${at}.cantidad`)) ?? 0;
      focusLine.current = at;
      setValue(`items.${at}.cantidad`, decimalText((current + 1000) / 1000), {
        shouldValidate: formState.isSubmitted,
      });
      return;
    }
    append(
      {
        producto_id: p.id,
        nombre: p.nombre,
        codigo: p.codigo,
        unidad: p.unidad,
        cantidad: '1',
        precio_unitario: decimalText(p.precio_compra, 'money'),
      },
      { shouldFocus: false },
    );
    focusLine.current = getValues('items').length - 1;
  };

  const onSubmit = handleSubmit(async (read) => {
    setFormError(null);
    const v = getValues();
    const body: PurchaseBody = {
      proveedor_id: v.proveedor_id || null,
      proveedor_nombre: v.proveedor_id ? null : v.proveedor_nombre.trim() || null,
      fecha: v.fecha,
      fecha_entrega: v.fecha_entrega || null,
      condicion_pago: v.condicion_pago,
      metodo_pago: v.condicion_pago === 'contado' ? v.metodo_pago : null,
      fecha_vencimiento: v.condicion_pago === 'cuenta_corriente' ? v.fecha_vencimiento || null : null,
      observaciones: v.observaciones.trim() || null,
      items: read.items.map((l) => ({
        producto_id: l.producto_id,
        cantidad: milliToNumber(l.cantidad),
        precio_unitario: centsToNumber(l.precio_unitario),
      })),
      // Without ver_costos the invoice is not shown, and the server keeps it as it is.
      ...(verCostos ? { factura: facturaBody(v.fp) } : {}),
      ...(purchase ? {} : { estado: v.recibida ? ('recibida' as const) : ('pendiente' as const) }),
    };
    try {
      const saved = await save.mutateAsync({ id: purchase?.id, body });
      navigate(`/compras/${saved.id}`, {
        state: {
          notice: purchase
            ? `Compra #${saved.numero} actualizada.`
            : `Compra #${saved.numero} registrada${saved.estado === 'recibida' ? ' y recibida' : ''}.`,
        },
      });
    } catch (e) {
      if (e instanceof ApiError) for (const fe of e.errors) fe.field = fe.field.replace(/^factura\./, 'fp.');
      setFormError(applyServerErrors(e, setError, 'No se pudo guardar la compra.'));
    }
  });

  const itemsError =
    (err.items as { message?: string; root?: { message?: string } } | undefined)?.message ??
    (err.items as { root?: { message?: string } } | undefined)?.root?.message;

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Card>
        <h2 className="mb-4 text-base font-semibold text-slate-900">Proveedor y fechas</h2>
        <div className="grid gap-4 md:grid-cols-2">
          <Field id="oc-proveedor" label="Proveedor" error={err.proveedor_id?.message}>
            <Select id="oc-proveedor" aria-invalid={Boolean(err.proveedor_id)} {...register('proveedor_id')}>
              <option value="">Sin proveedor registrado</option>
              {options.map((s) => (
                <option key={s.id} value={s.id}>
                  {s.nombre}
                  {s.estado === 'inactivo' ? ' (inactivo)' : ''}
                </option>
              ))}
            </Select>
          </Field>
          {!proveedorId ? (
            <Field
              id="oc-proveedor-nombre"
              label="Nombre del proveedor"
              hint="Opcional, para una compra ocasional."
              error={err.proveedor_nombre?.message}
            >
              <Input id="oc-proveedor-nombre" autoComplete="off" {...register('proveedor_nombre')} />
            </Field>
          ) : (
            <div className="hidden md:block" aria-hidden />
          )}
          <Field id="oc-fecha" label="Fecha de la compra" required error={err.fecha?.message}>
            <Input id="oc-fecha" type="date" aria-invalid={Boolean(err.fecha)} {...register('fecha')} />
          </Field>
          <Field
            id="oc-entrega"
            label="Fecha de entrega"
            hint="Cuándo llega (o llegó) la mercadería."
            error={err.fecha_entrega?.message}
          >
            <Input id="oc-entrega" type="date" {...register('fecha_entrega')} />
          </Field>
        </div>
      </Card>

      <Card>
        <div className="mb-4 flex items-baseline justify-between gap-3">
          <h2 className="text-base font-semibold text-slate-900">Productos</h2>
          <span className="text-sm text-slate-500">
            {fields.length === 1 ? '1 producto' : `${fields.length} productos`}
          </span>
        </div>
        <ProductPicker
          onPick={addProduct}
          invalid={Boolean(itemsError)}
          describedBy={itemsError ? 'oc-items-error' : undefined}
        />
        {itemsError && (
          <p id="oc-items-error" role="alert" className="mt-1 text-xs text-red-600">
            {itemsError}
          </p>
        )}
        {fields.length === 0 ? (
          <div className="mt-4">
            <EmptyState icon={<PackagePlus className="h-8 w-8" />} title="La orden todavía no tiene productos">
              Buscá cada producto arriba y elegilo: se agrega con su último costo.
            </EmptyState>
          </div>
        ) : (
          <div className="mt-4">
            <div
              className="hidden grid-cols-[minmax(0,1fr)_8rem_9rem_8rem_2.5rem] gap-3 border-b border-slate-200 pb-2 text-xs font-medium uppercase tracking-wide text-slate-500 md:grid"
              aria-hidden
            >
              <span>Producto</span>
              <span>Cantidad</span>
              <span>Costo unitario</span>
              <span className="text-right">Subtotal</span>
              <span />
            </div>
            <ul className="divide-y divide-slate-100" aria-label="Líneas de la orden">
              {fields.map((f, i) => {
                const line = items?.[i] ?? f;
                const sub = lineCents(line);
                const e = err.items?.[i];
                return (
                  <li
                    key={f.id}
                    className="grid grid-cols-2 gap-x-3 gap-y-2 py-3 md:grid-cols-[minmax(0,1fr)_8rem_9rem_8rem_2.5rem] md:items-start"
                  >
                    <div className="col-span-2 flex items-start justify-between gap-2 md:col-span-1 md:pt-2">
                      <div className="min-w-0">
                        <p className="truncate font-medium text-slate-900">{f.nombre}</p>
                        <p className="truncate text-xs text-slate-500">
                          {[f.codigo, f.unidad].filter(Boolean).join(' · ')}
                        </p>
                      </div>
                      <div className="md:hidden">
                        <Button variant="ghost" size="icon" aria-label={`Quitar ${f.nombre}`} onClick={() => remove(i)}>
                          <Trash2 className="h-4 w-4 text-red-600" />
                        </Button>
                      </div>
                    </div>
                    <div>
                      <label htmlFor={`oc-cant-${i}`} className="mb-1 block text-xs text-slate-500 md:sr-only">
                        Cantidad
                      </label>
                      <Input
                        id={`oc-cant-${i}`}
                        inputMode="decimal"
                        autoComplete="off"
                        aria-invalid={Boolean(e?.cantidad)}
                        aria-label={`Cantidad de ${f.nombre}`}
                        {...register(`items.${i}.cantidad`)}
                      />
                      {e?.cantidad && <p className="mt-1 text-xs text-red-600">{e.cantidad.message}</p>}
                    </div>
                    <div>
                      <label htmlFor={`oc-precio-${i}`} className="mb-1 block text-xs text-slate-500 md:sr-only">
                        Costo unitario
                      </label>
                      <Input
                        id={`oc-precio-${i}`}
                        inputMode="decimal"
                        autoComplete="off"
                        aria-invalid={Boolean(e?.precio_unitario)}
                        aria-label={`Costo unitario de ${f.nombre}`}
                        {...register(`items.${i}.precio_unitario`)}
                      />
                      {e?.precio_unitario && <p className="mt-1 text-xs text-red-600">{e.precio_unitario.message}</p>}
                      {e?.producto_id && <p className="mt-1 text-xs text-red-600">{e.producto_id.message}</p>}
                    </div>
                    <p className="col-span-2 text-right text-sm tabular-nums text-slate-700 md:col-span-1 md:pt-2.5">
                      <span className="md:sr-only">Subtotal: </span>
                      {sub === null ? '—' : formatMoney(sub / 100, formatting)}
                    </p>
                    <div className="hidden md:block">
                      <Button
                        variant="ghost"
                        size="icon"
                        aria-label={`Quitar ${f.nombre}`}
                        title="Quitar"
                        onClick={() => remove(i)}
                      >
                        <Trash2 className="h-4 w-4 text-red-600" />
                      </Button>
                    </div>
                  </li>
                );
              })}
            </ul>
          </div>
        )}
        <div className="mt-2 flex items-center justify-end gap-4 border-t border-slate-200 pt-3">
          <span className="text-sm font-medium text-slate-600">Total</span>
          <span className="text-xl font-semibold tabular-nums text-slate-900" data-testid="oc-total">
            {formatMoney(totalCents / 100, formatting)}
          </span>
        </div>
      </Card>

      {verCostos && (
        <FacturaSection
          control={control as unknown as Parameters<typeof FacturaSection>[0]['control']}
          register={register as unknown as Parameters<typeof FacturaSection>[0]['register']}
          setValue={setValue as unknown as Parameters<typeof FacturaSection>[0]['setValue']}
          getValues={getValues as unknown as Parameters<typeof FacturaSection>[0]['getValues']}
          errors={err.fp}
          linesCents={totalCents}
        />
      )}

      <Card>
        <h2 className="mb-4 text-base font-semibold text-slate-900">Pago</h2>
        <fieldset>
          <legend className="mb-2 text-sm font-medium text-slate-700">Condición de pago</legend>
          <div className="grid grid-cols-2 gap-2 sm:max-w-md">
            {PAYMENT_CONDITIONS.map((c) => (
              <label
                key={c}
                className={cn(
                  'flex cursor-pointer items-center gap-2 rounded-lg border px-3 py-2 text-sm focus-within:ring-2 focus-within:ring-blue-500/40',
                  condicion === c ? 'border-blue-600 bg-blue-50 text-blue-900' : 'border-slate-300 text-slate-700',
                )}
              >
                <input type="radio" value={c} className="accent-blue-600" {...register('condicion_pago')} />
                {PAYMENT_CONDITION_LABELS[c]}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="mt-4 grid gap-4 md:grid-cols-2">
          {condicion === 'contado' ? (
            <Field id="oc-metodo" label="Método de pago" error={err.metodo_pago?.message}>
              <Select id="oc-metodo" {...register('metodo_pago')}>
                {PAYMENT_METHODS.map((m) => (
                  <option key={m} value={m}>
                    {paymentMethodLabel(m)}
                  </option>
                ))}
              </Select>
            </Field>
          ) : (
            <Field
              id="oc-vencimiento"
              label="Vencimiento de la cuenta corriente"
              required
              hint="Queda en Cuentas Pendientes → Por Pagar."
              error={err.fecha_vencimiento?.message}
            >
              <Input
                id="oc-vencimiento"
                type="date"
                aria-invalid={Boolean(err.fecha_vencimiento)}
                {...register('fecha_vencimiento')}
              />
            </Field>
          )}
        </div>
        <p className="mt-3 text-sm text-slate-500">
          {condicion === 'contado'
            ? 'Se registra un egreso en Finanzas, categoría «Compras», por el total.'
            : 'Se registra una cuenta por pagar al proveedor por el total.'}
        </p>
        <div className="mt-4">
          <Field id="oc-observaciones" label="Observaciones" error={err.observaciones?.message}>
            <Textarea id="oc-observaciones" rows={2} {...register('observaciones')} />
          </Field>
        </div>
        {!purchase && (
          <label className="mt-4 flex items-start gap-2 text-sm text-slate-700">
            <input type="checkbox" className="mt-0.5 accent-blue-600" {...register('recibida')} />
            <span>
              La mercadería ya llegó: marcar como recibida al guardar
              <span className="block text-xs text-slate-500">Suma el stock y actualiza el costo de cada producto.</span>
            </span>
          </label>
        )}
      </Card>

      {formError && <ErrorNote>{formError}</ErrorNote>}
      <div className="flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => navigate(purchase ? `/compras/${purchase.id}` : '/compras')}>
          Cancelar
        </Button>
        <Button type="submit" loading={formState.isSubmitting}>
          {purchase ? 'Guardar cambios' : 'Guardar compra'}
        </Button>
      </div>
    </form>
  );
}

/** /compras/nueva and /compras/{id}/editar: the purchase order form. */
export function PurchaseFormPage() {
  const { id } = useParams();
  const purchase = usePurchase(id);
  const editing = Boolean(id);
  const back = (
    <Link
      to={editing ? `/compras/${id}` : '/compras'}
      className="mb-2 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden />
      {editing ? 'Volver a la compra' : 'Órdenes de compra'}
    </Link>
  );
  if (editing && purchase.error) {
    return (
      <div>
        {back}
        <ErrorNote>{errorMessage(purchase.error, 'No se pudo cargar la compra.')}</ErrorNote>
      </div>
    );
  }
  if (editing && !purchase.data) {
    return (
      <div className="space-y-4" aria-busy="true">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-40" />
        <Skeleton className="h-56" />
      </div>
    );
  }
  const p = purchase.data;
  const locked = p && (p.estado !== 'pendiente' || p.cuenta_estado === 'pagado');
  return (
    <div className="mx-auto max-w-5xl">
      {back}
      <PageHeader
        title={p ? `Editar compra #${p.numero}` : 'Nueva orden de compra'}
        description={p ? undefined : 'Elegí el proveedor, agregá los productos con su costo y cómo vas a pagar.'}
      />
      {locked ? (
        <ErrorNote>
          Solo se pueden modificar los ítems y condiciones de una compra pendiente y sin pagar.{' '}
          <Link className="font-medium underline" to={`/compras/${p.id}`}>
            Volver a la compra
          </Link>
        </ErrorNote>
      ) : (
        <OrderForm purchase={p} />
      )}
    </div>
  );
}
