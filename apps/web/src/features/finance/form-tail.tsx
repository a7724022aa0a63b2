import type { FieldError, UseFormRegisterReturn } from 'react-hook-form';
import { FormActions } from '@/components/ui/form-actions';
import { Field, Textarea } from '@/components/ui/input';

/** The end of a finance form (movement, account): Observaciones, why saving failed, and the buttons. */
export function FinanceFormTail({
  id,
  notes,
  notesError,
  formError,
  busy,
  editing,
  onCancel,
}: {
  /** The Observaciones field's id. */
  id: string;
  notes: UseFormRegisterReturn;
  notesError?: FieldError;
  formError: string | null;
  busy: boolean;
  /** Editing an existing row ("Guardar cambios") or creating one ("Guardar"). */
  editing: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      <Field id={id} label="Observaciones" error={notesError?.message}>
        <Textarea id={id} rows={2} aria-invalid={Boolean(notesError)} {...notes} />
      </Field>
      <FormActions
        error={formError}
        busy={busy}
        onCancel={onCancel}
        submitLabel={editing ? 'Guardar cambios' : 'Guardar'}
      />
    </>
  );
}
