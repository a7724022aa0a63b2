import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

export const NO_BUSINESS_ALERT = 'Por favor seleccioná un negocio antes de continuar';

/** Asked when a business link is followed with no business selected. */
export default function NoBusinessDialog({
  open,
  onOpenChange,
  onNavigate,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onNavigate?: () => void;
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange} title="Elegí un negocio" description={NO_BUSINESS_ALERT}>
      <p className="text-sm text-slate-600">Elegilo arriba, en el selector de negocio, o creá uno nuevo en Negocios.</p>
      <div className="mt-4 flex justify-end gap-3">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Entendido
        </Button>
        <Link
          to="/business-users"
          onClick={() => {
            onOpenChange(false);
            onNavigate?.();
          }}
          className="inline-flex items-center rounded-lg bg-blue-600 px-4 py-2 text-sm font-medium text-white hover:bg-blue-700"
        >
          Ir a Negocios
        </Link>
      </div>
    </Dialog>
  );
}
