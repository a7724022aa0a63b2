import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import type { z } from 'zod';
import {
  centsToNumber,
  FINANCE_PAYMENT_METHODS,
  MOVEMENT_TYPE_LABELS,
  MOVEMENT_TYPES,
  movementForm,
  paymentMethodLabel,
  type Movement,
  type MovementType,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Dialog } from '@/components/ui/dialog';
import { FinanceFormTail } from './form-tail';
import { Field, InputField, MoneyField, Select } from '@/components/ui/input';
import { decimalResolver, decimalText } from '@/lib/decimal-input';
import { todayIn } from '@/lib/format';
import { applyServerErrors } from '@/lib/forms';
import { customerLabel, useCustomerOptions, useFinanceCategories, useSaveMovement } from './finance.api';

interface Values {
  tipo: MovementType;
  monto: string;
  fecha: string;
  metodo_pago: string;
  categoria_id: string;
  cliente_id: string;
  descripcion: string;
  observaciones: string;
}
type Output = z.output<typeof movementForm>;

const toValues = (m: Movement): Values => ({
  tipo: m.tipo,
  monto: decimalText(m.monto, 'money'),
  fecha: m.fecha,
  metodo_pago: m.metodo_pago,
  categoria_id: m.categoria_id ?? '',
  cliente_id: m.cliente_id ?? '',
  descripcion: m.descripcion ?? '',
  observaciones: m.observaciones ?? '',
});

function MovementForm({
  movement,
  presetTipo,
  onDone,
}: {
  movement?: Movement;
  presetTipo?: MovementType;
  onDone: () => void;
}) {
  const { formatting } = useBusiness();
  const categories = useFinanceCategories();
  const customers = useCustomerOptions();
  const save = useSaveMovement();
  const [formError, setFormError] = useState<string | null>(null);
  // Mounted each time the dialog opens: empty for a new movement, filled from the record on edit.
  const { register, handleSubmit, control, setValue, setError, formState } = useForm<Values, unknown, Output>({
    resolver: decimalResolver<Values, Output>(movementForm, { monto: 'money' }),
    defaultValues: movement
      ? toValues(movement)
      : {
          tipo: presetTipo ?? 'ingreso',
          monto: '',
          fecha: todayIn(formatting.timezone),
          metodo_pago: 'efectivo',
          categoria_id: '',
          cliente_id: '',
          descripcion: '',
          observaciones: '',
        },
  });
  const tipo = useWatch({ control, name: 'tipo' });
  const metodo = useWatch({ control, name: 'metodo_pago' });
  const err = formState.errors;
  // Active categories of the chosen type (the record's own category stays visible on edit).
  const options = (categories.data ?? []).filter(
    (c) => c.tipo === tipo && (c.activo || c.id === movement?.categoria_id),
  );
  const methods: string[] = [...FINANCE_PAYMENT_METHODS];
  if (metodo && !methods.includes(metodo)) methods.push(metodo);

  const onSubmit = handleSubmit(async (v) => {
    setFormError(null);
    try {
      await save.mutateAsync({
        id: movement?.id,
        body: {
          tipo: v.tipo,
          categoria_id: v.categoria_id ?? null,
          monto: centsToNumber(v.monto),
          fecha: v.fecha,
          metodo_pago: v.metodo_pago,
          descripcion: v.descripcion ?? null,
          observaciones: v.observaciones ?? null,
          cliente_id: v.cliente_id ?? null,
        },
      });
      onDone();
    } catch (e) {
      console.error(e);
      setFormError(applyServerErrors(e, setError, 'Error al guardar el movimiento'));
    }
  });

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field id="mov-tipo" label="Tipo" required error={err.tipo?.message}>
          <Select
            id="mov-tipo"
            {...register('tipo', {
              // SPEC §4: changing the type clears the chosen category.
              onChange: () => setValue('categoria_id', ''),
            })}
          >
            {MOVEMENT_TYPES.map((t) => (
              <option key={t} value={t}>
                {MOVEMENT_TYPE_LABELS[t]}
              </option>
            ))}
          </Select>
        </Field>
        <MoneyField id="mov-monto" label="Monto" required error={err.monto} {...register('monto')} />
        <InputField id="mov-fecha" label="Fecha" required error={err.fecha} type="date" {...register('fecha')} />
        <Field id="mov-metodo" label="Método de Pago" required error={err.metodo_pago?.message}>
          <Select id="mov-metodo" aria-invalid={Boolean(err.metodo_pago)} {...register('metodo_pago')}>
            {methods.map((m) => (
              <option key={m} value={m}>
                {paymentMethodLabel(m)}
              </option>
            ))}
          </Select>
        </Field>
      </div>
      <Field id="mov-categoria" label="Categoría" error={err.categoria_id?.message}>
        <Select id="mov-categoria" aria-invalid={Boolean(err.categoria_id)} {...register('categoria_id')}>
          <option value="">Sin categoría</option>
          {options.map((c) => (
            <option key={c.id} value={c.id}>
              {c.nombre}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="mov-cliente" label="Cliente" error={err.cliente_id?.message}>
        <Select id="mov-cliente" aria-invalid={Boolean(err.cliente_id)} {...register('cliente_id')}>
          <option value="">Sin cliente</option>
          {(customers.data ?? []).map((c) => (
            <option key={c.id} value={c.id}>
              {customerLabel(c)}
            </option>
          ))}
          {movement?.cliente_id && !(customers.data ?? []).some((c) => c.id === movement.cliente_id) && (
            <option value={movement.cliente_id}>{movement.cliente_nombre ?? 'Cliente'}</option>
          )}
        </Select>
      </Field>
      <InputField id="mov-descripcion" label="Descripción" error={err.descripcion} {...register('descripcion')} />
      <FinanceFormTail
        id="mov-observaciones"
        notes={register('observaciones')}
        notesError={err.observaciones}
        formError={formError}
        busy={formState.isSubmitting}
        editing={Boolean(movement)}
        onCancel={onDone}
      />
    </form>
  );
}

/** 'Nuevo Movimiento' / 'Editar Movimiento' (SPEC §2); closes on success, stays open on failure. */
export function MovementFormDialog({
  open,
  onOpenChange,
  movement,
  presetTipo,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  movement?: Movement;
  presetTipo?: MovementType;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title={movement ? 'Editar Movimiento' : 'Nuevo Movimiento'}>
      <MovementForm movement={movement} presetTipo={presetTipo} onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}
