import { useState, type ReactNode } from 'react';
import { PAYMENT_CONDITION_LABELS, PURCHASE_STATE_LABELS, type Purchase, type PurchaseState } from '@mostrador/shared';
import { Button, type ButtonProps } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge } from '@/components/ui/misc';
import { formatDate, type Formatting } from '@/lib/format';

const STATE_COLORS: Record<PurchaseState, 'yellow' | 'blue' | 'green' | 'gray'> = {
  pendiente: 'yellow',
  recibida_parcial: 'blue',
  recibida: 'green',
  cancelada: 'gray',
};

export function PurchaseStateBadge({ estado }: { estado: PurchaseState }) {
  return <Badge color={STATE_COLORS[estado]}>{PURCHASE_STATE_LABELS[estado]}</Badge>;
}

/** "Falta 1 producto" / "Faltan 3 productos": lines with goods still to arrive. */
export const pendingText = (p: Pick<Purchase, 'items_pendientes'>) =>
  p.items_pendientes === 1 ? 'Falta 1 producto' : `Faltan ${p.items_pendientes} productos`;

/** "Contado" or "Cuenta corriente · vence 10/04/2026" (and whether the payable was paid). */
export function conditionText(p: Purchase, f: Formatting): string {
  if (p.condicion_pago === 'contado') return PAYMENT_CONDITION_LABELS.contado;
  const due = p.fecha_vencimiento ? ` · vence ${formatDate(p.fecha_vencimiento, f)}` : '';
  const paid = p.cuenta_estado === 'pagado' ? ' · pagada' : p.cuenta_estado === 'vencido' ? ' · vencida' : '';
  return `${PAYMENT_CONDITION_LABELS.cuenta_corriente}${due}${paid}`;
}

/** Asks before a state change; shows the server's refusal and stays open when it fails. */
export function ConfirmAction({
  open,
  onOpenChange,
  title,
  children,
  confirmLabel,
  variant = 'primary',
  onConfirm,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  children: ReactNode;
  confirmLabel: string;
  variant?: ButtonProps['variant'];
  onConfirm: () => Promise<unknown>;
}) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => {
        if (!o) setError(null);
        onOpenChange(o);
      }}
      title={title}
    >
      <div className="space-y-2 text-sm text-slate-600">{children}</div>
      {error && (
        <p role="alert" className="mt-3 rounded-md bg-red-50 p-3 text-sm text-red-700">
          {error}
        </p>
      )}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={() => onOpenChange(false)}>
          Volver
        </Button>
        <Button
          variant={variant}
          loading={busy}
          onClick={async () => {
            setBusy(true);
            setError(null);
            try {
              await onConfirm();
              onOpenChange(false);
            } catch (e) {
              setError(e instanceof Error ? e.message : 'No se pudo completar la acción.');
            } finally {
              setBusy(false);
            }
          }}
        >
          {confirmLabel}
        </Button>
      </div>
    </Dialog>
  );
}
