import { Button } from './button';
import { ErrorNote } from './misc';

/** The end of a dialog form: why saving failed (when it did), then Cancelar and the submit button. */
export function FormActions({
  error,
  busy,
  onCancel,
  submitLabel,
}: {
  error: string | null;
  busy: boolean;
  onCancel: () => void;
  submitLabel: string;
}) {
  return (
    <>
      {error && <ErrorNote>{error}</ErrorNote>}
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancelar
        </Button>
        <Button type="submit" loading={busy}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
