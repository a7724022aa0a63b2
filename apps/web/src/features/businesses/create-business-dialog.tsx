import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { BUSINESS_TYPES, businessInput, type BusinessInput } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input, Select, Textarea } from '@/components/ui/input';
import { ErrorNote } from '@/components/ui/misc';
import { applyServerErrors } from '@/lib/forms';
import { useCreateBusiness } from './businesses.api';

export function CreateBusinessForm({ onDone }: { onDone?: () => void }) {
  const create = useCreateBusiness();
  const { select } = useBusiness();
  const [formError, setFormError] = useState<string | null>(null);
  const form = useForm<BusinessInput>({
    resolver: zodResolver(businessInput) as never,
    defaultValues: { nombre: '', tipo: 'Comercio', descripcion: '', cuit: '' },
  });
  const { register, handleSubmit, formState, setError } = form;
  const onSubmit = handleSubmit(async (values) => {
    setFormError(null);
    try {
      const r = await create.mutateAsync(values);
      select(r.business_id);
      form.reset();
      onDone?.();
    } catch (e) {
      setFormError(applyServerErrors(e, setError, 'No se pudo crear el negocio.'));
    }
  });
  const err = formState.errors;
  return (
    <form onSubmit={onSubmit} className="space-y-4" noValidate>
      <Field id="negocio-nombre" label="Nombre del negocio" required error={err.nombre?.message}>
        <Input id="negocio-nombre" autoFocus aria-invalid={Boolean(err.nombre)} {...register('nombre')} />
      </Field>
      <Field id="negocio-tipo" label="Tipo" error={err.tipo?.message}>
        <Select id="negocio-tipo" {...register('tipo')}>
          {BUSINESS_TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </Select>
      </Field>
      <Field id="negocio-cuit" label="CUIT" hint="Opcional. 11 dígitos, con o sin guiones." error={err.cuit?.message}>
        <Input id="negocio-cuit" inputMode="numeric" aria-invalid={Boolean(err.cuit)} {...register('cuit')} />
      </Field>
      <Field id="negocio-descripcion" label="Descripción" error={err.descripcion?.message}>
        <Textarea id="negocio-descripcion" rows={2} {...register('descripcion')} />
      </Field>
      {formError && <ErrorNote>{formError}</ErrorNote>}
      <div className="flex justify-end gap-3">
        <Button type="submit" loading={formState.isSubmitting}>
          Crear negocio
        </Button>
      </div>
    </form>
  );
}

export function CreateBusinessDialog({ open, onOpenChange }: { open: boolean; onOpenChange: (o: boolean) => void }) {
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Nuevo negocio"
      description="Podés manejar varios negocios con la misma cuenta."
    >
      <CreateBusinessForm onDone={() => onOpenChange(false)} />
    </Dialog>
  );
}
