import type { ReactNode } from 'react';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';

/**
 * The phone's payment step: Cobrar at the bottom opens it, with the medio, "Paga con" and the
 * total in reach; the sale is charged only from here, with the medio in view.
 */
export function PaymentStep({
  open,
  onClose,
  total,
  saving,
  onConfirm,
  children,
}: {
  open: boolean;
  onClose: () => void;
  /** The total, formatted. */
  total: string;
  saving: boolean;
  onConfirm: () => void;
  children: ReactNode;
}) {
  return (
    <Dialog open={open} onOpenChange={(o) => !o && onClose()} title="Cobrar" className="max-w-md">
      <div className="space-y-3">{children}</div>
      <div className="mt-4 grid grid-cols-[auto_minmax(0,1fr)] gap-2">
        <Button variant="secondary" size="lg" onClick={onClose}>
          Volver
        </Button>
        <Button size="lg" variant="success" className="whitespace-nowrap px-3" loading={saving} onClick={onConfirm}>
          Cobrar {total}
        </Button>
      </div>
    </Dialog>
  );
}
