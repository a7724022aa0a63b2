import { useRef, useState, type FormEvent } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  centsToNumber,
  CONTENIDO_UNIDAD_LABELS,
  CONTENIDO_UNIDADES,
  milliToNumber,
  productForm,
  UNIT_SUGGESTIONS,
  type Product,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Dialog } from '@/components/ui/dialog';
import { FormActions } from '@/components/ui/form-actions';
import { DecimalField, Field, Input, InputField, MoneyField, Select, Textarea } from '@/components/ui/input';
import { useCategoryChoices, type CategoryChoice } from '@/features/categories/categories.api';
import { useCounterControls } from '@/features/permissions/permissions.api';
import { decimalResolver, decimalText, readDecimal } from '@/lib/decimal-input';
import { applyServerErrors } from '@/lib/forms';
import { formatNumber } from '@/lib/format';
import { IvaSelect } from '@/features/facturacion/iva-select';
import { DEFAULT_IVA_RATE } from '@mostrador/shared/facturacion';
import { CodigosProveedorFields, type CodigosProveedorHandle } from '@/features/precios/codigos-proveedor-fields';
import { UsdFields } from '@/features/precios/usd-fields';
import { useSaveProduct } from './products.api';

interface Values {
  nombre: string;
  codigo: string;
  codigo_barras: string;
  categoria_id: string;
  precio_compra: string;
  precio_venta: string;
  stock_actual: string;
  stock_minimo: string;
  unidad: string;
  descripcion: string;
  activo: boolean;
  controla_stock: boolean;
  iva: string;
  moneda: 'ARS' | 'USD';
  precio_usd: string;
  contenido: string;
  contenido_unidad: string;
}
type Output = z.output<typeof productForm>;

const toValues = (p: Product): Values => ({
  nombre: p.nombre,
  codigo: p.codigo ?? '',
  codigo_barras: p.codigo_barras ?? '',
  categoria_id: p.categoria_id ?? '',
  precio_compra: decimalText(p.precio_compra, 'money'),
  precio_venta: decimalText(p.precio_venta, 'money'),
  stock_actual: decimalText(p.stock_actual),
  stock_minimo: decimalText(p.stock_minimo),
  unidad: p.unidad,
  descripcion: p.descripcion ?? '',
  activo: p.activo,
  controla_stock: p.controla_stock,
  iva: p.iva ?? DEFAULT_IVA_RATE,
  moneda: p.moneda ?? 'ARS',
  precio_usd: decimalText(p.precio_usd ?? null, 'money'),
  contenido: p.contenido == null ? '' : String(p.contenido).replace('.', ','),
  contenido_unidad: p.contenido_unidad ?? '',
});

const EMPTY: Values = {
  nombre: '',
  codigo: '',
  codigo_barras: '',
  categoria_id: '',
  precio_compra: '',
  precio_venta: '',
  stock_actual: '',
  stock_minimo: '',
  unidad: 'unidad',
  descripcion: '',
  activo: true,
  controla_stock: true,
  iva: DEFAULT_IVA_RATE,
  moneda: 'ARS',
  precio_usd: '',
  contenido: '',
  contenido_unidad: '',
};

/** The margin over cost, when both prices are there: a quick check before saving. */
function Margin({ compra, venta }: { compra: string; venta: string }) {
  const { formatting } = useBusiness();
  const c = readDecimal(compra, 'money');
  const v = readDecimal(venta, 'money');
  if (!c.ok || !v.ok || c.value === null || v.value === null || c.value <= 0) return null;
  const pct = ((v.value - c.value) / c.value) * 100;
  return (
    <p className={pct < 0 ? 'text-xs text-red-600' : 'text-xs text-slate-500'}>
      Margen sobre el costo: {formatNumber(pct, formatting, 1)} %
    </p>
  );
}

/** Opens once the category choices are known (see useCategoryChoices). */
function ProductForm({ product, onDone }: { product?: Product; onDone: (saved?: Product) => void }) {
  const categories = useCategoryChoices(product);
  if (!categories) return <p className="py-6 text-center text-sm text-slate-500">Cargando…</p>;
  return <ProductFormFields product={product} onDone={onDone} categories={categories} />;
}

function ProductFormFields({
  product,
  onDone,
  categories,
}: {
  product?: Product;
  onDone: (saved?: Product) => void;
  categories: CategoryChoice[];
}) {
  const { formatting } = useBusiness();
  const save = useSaveProduct();
  const [formError, setFormError] = useState<string | null>(null);
  const { register, handleSubmit, setError, formState, control, setValue } = useForm<Values, unknown, Output>({
    resolver: decimalResolver<Values, Output>(productForm, {
      precio_compra: 'money',
      precio_venta: 'money',
      precio_usd: 'money',
      stock_actual: 'quantity',
      stock_minimo: 'quantity',
    }),
    defaultValues: product ? toValues(product) : EMPTY,
  });
  const err = formState.errors;
  const [compra, venta, controla] = useWatch({ control, name: ['precio_compra', 'precio_venta', 'controla_stock'] });
  const { verCostos } = useCounterControls();
  const codigos = useRef<CodigosProveedorHandle>(null);

  // The supplier codes are read when submitting (an event), not while rendering.
  const onSubmit = (e: FormEvent) => {
    const c = codigos.current;
    return submit(c)(e);
  };
  const submit = (c: CodigosProveedorHandle | null) =>
    handleSubmit(async (v) => {
      setFormError(null);
      if (c?.incomplete) return setFormError('Completá o quitá los códigos de proveedores incompletos.');
      try {
        const saved = await save.mutateAsync({
          id: product?.id,
          body: {
            nombre: v.nombre,
            descripcion: v.descripcion ?? null,
            codigo: v.codigo ?? null,
            codigo_barras: v.codigo_barras ?? null,
            // Without ver_costos the cost is neither shown nor sent (the server keeps it as it is).
            ...(verCostos
              ? {
                  precio_compra:
                    v.precio_compra === null || v.precio_compra === undefined ? null : centsToNumber(v.precio_compra),
                }
              : {}),
            precio_venta: centsToNumber(v.precio_venta),
            ...(v.moneda === 'USD'
              ? { moneda: 'USD' as const, precio_usd: v.precio_usd == null ? null : centsToNumber(v.precio_usd) }
              : product?.moneda === 'USD'
                ? { moneda: 'ARS' as const }
                : {}),
            // Stock is set only when creating; afterwards it changes through adjustments.
            ...(product || !v.controla_stock ? {} : { stock_actual: milliToNumber(v.stock_actual ?? 0) }),
            controla_stock: v.controla_stock ?? true,
            stock_minimo: milliToNumber(v.stock_minimo ?? 0),
            unidad: v.unidad ?? null,
            categoria_id: v.categoria_id ?? null,
            activo: v.activo ?? true,
            ...(v.iva ? { iva: v.iva } : {}),
            contenido: v.contenido ?? null,
            contenido_unidad: v.contenido_unidad ?? null,
          },
        });
        if (c?.dirty) await c.save(saved.id);
        onDone(saved);
      } catch (e) {
        setFormError(applyServerErrors(e, setError, 'No se pudo guardar el producto.'));
      }
    });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <InputField id="prod-nombre" label="Nombre" required error={err.nombre} autoFocus {...register('nombre')} />
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="prod-codigo"
          label="Código"
          hint="Único en el negocio; la importación lo usa para actualizar."
          error={err.codigo}
          {...register('codigo')}
        />
        <InputField
          id="prod-barras"
          label="Código de barras"
          error={err.codigo_barras}
          inputMode="numeric"
          {...register('codigo_barras')}
        />
        {verCostos && (
          <MoneyField
            id="prod-compra"
            label="Precio de compra (costo)"
            error={err.precio_compra}
            {...register('precio_compra')}
          />
        )}
        <MoneyField
          id="prod-venta"
          label="Precio de venta"
          required
          error={err.precio_venta}
          {...register('precio_venta')}
        />
        <UsdFields control={control} register={register} setValue={setValue} error={err.precio_usd} />
      </div>
      {verCostos && <Margin compra={compra ?? ''} venta={venta ?? ''} />}
      <label className="flex items-start gap-2 text-sm text-slate-700">
        <input type="checkbox" className="mt-0.5 h-4 w-4 rounded border-slate-300" {...register('controla_stock')} />
        <span>
          Controlar stock
          <span className="block text-xs text-slate-500">
            Sin control, las ventas y compras no cambian el stock (por ejemplo, hielo o fotocopias).
          </span>
        </span>
      </label>
      <div className="grid gap-4 sm:grid-cols-3">
        {!controla ? null : product ? (
          <Field id="prod-stock" label="Stock actual" hint="Se cambia con «Ajustar stock».">
            <Input id="prod-stock" value={formatNumber(product.stock_actual, formatting)} readOnly disabled />
          </Field>
        ) : (
          <DecimalField id="prod-stock" label="Stock inicial" error={err.stock_actual} {...register('stock_actual')} />
        )}
        {controla && (
          <DecimalField
            id="prod-minimo"
            label="Stock mínimo"
            hint="Avisa cuando el stock llega a este valor."
            error={err.stock_minimo}
            {...register('stock_minimo')}
          />
        )}
        <Field id="prod-unidad" label="Unidad" error={err.unidad?.message}>
          <Input id="prod-unidad" list="prod-unidades" aria-invalid={Boolean(err.unidad)} {...register('unidad')} />
          <datalist id="prod-unidades">
            {UNIT_SUGGESTIONS.map((u) => (
              <option key={u} value={u} />
            ))}
          </datalist>
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <InputField
          id="prod-contenido"
          label="Contenido neto"
          hint="Para el precio por unidad de medida de la etiqueta de góndola (por ejemplo 500 g)."
          inputMode="decimal"
          error={err.contenido}
          {...register('contenido')}
        />
        <Field id="prod-contenido-unidad" label="Unidad del contenido" error={err.contenido_unidad?.message}>
          <Select
            id="prod-contenido-unidad"
            aria-invalid={Boolean(err.contenido_unidad)}
            {...register('contenido_unidad')}
          >
            <option value="">—</option>
            {CONTENIDO_UNIDADES.map((u) => (
              <option key={u} value={u}>
                {CONTENIDO_UNIDAD_LABELS[u]}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="prod-categoria" label="Categoría" error={err.categoria_id?.message}>
          <Select id="prod-categoria" aria-invalid={Boolean(err.categoria_id)} {...register('categoria_id')}>
            <option value="">Sin categoría</option>
            {categories.map((c) => (
              <option key={c.id} value={c.id}>
                {c.nombre}
              </option>
            ))}
          </Select>
        </Field>
        <IvaSelect id="prod-iva" error={err.iva?.message} {...register('iva')} />
      </div>
      <Field id="prod-descripcion" label="Descripción" error={err.descripcion?.message}>
        <Textarea id="prod-descripcion" rows={2} aria-invalid={Boolean(err.descripcion)} {...register('descripcion')} />
      </Field>
      <label className="flex items-center gap-2 text-sm text-slate-700">
        <input type="checkbox" className="h-4 w-4 rounded border-slate-300" {...register('activo')} />
        Activo (se puede vender)
      </label>
      {product && <CodigosProveedorFields productId={product.id} ref={codigos} />}
      <FormActions
        error={formError}
        busy={formState.isSubmitting}
        onCancel={() => onDone()}
        submitLabel={product ? 'Guardar cambios' : 'Crear producto'}
      />
    </form>
  );
}

/** 'Nuevo producto' / 'Editar producto': closes on success, stays open (with the reason) on failure. */
export function ProductFormDialog({
  open,
  onOpenChange,
  product,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  product?: Product;
  onSaved?: (p: Product, created: boolean) => void;
}) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={product ? 'Editar producto' : 'Nuevo producto'}
      className="sm:max-w-2xl"
    >
      <ProductForm
        product={product}
        onDone={(saved) => {
          onOpenChange(false);
          if (saved) onSaved?.(saved, !product);
        }}
      />
    </Dialog>
  );
}
