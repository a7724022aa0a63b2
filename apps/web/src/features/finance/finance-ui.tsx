import { MOVEMENT_TYPE_LABELS, type MovementType } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Badge, Skeleton } from '@/components/ui/misc';
import { useCan } from '@/features/permissions/permissions.api';
import { cn } from '@/lib/cn';
import { formatMoney } from '@/lib/format';

/** SPEC §6: the finance resources, all guarded by the `finanzas` module flags. */
export type FinanceResource = 'movimientos_financieros' | 'categorias_financieras' | 'cuentas_pendientes';
const RESOURCE_MODULE: Record<FinanceResource, string> = {
  movimientos_financieros: 'finanzas',
  categorias_financieras: 'finanzas',
  cuentas_pendientes: 'finanzas',
};

/** `edit` guards create and edit buttons; `delete` guards delete buttons. */
export function useFinanceCan() {
  const can = useCan();
  return (resource: FinanceResource, action: 'view' | 'edit' | 'delete') =>
    can(RESOURCE_MODULE[resource], action === 'edit' ? 'editar' : action === 'delete' ? 'eliminar' : 'ver');
}

export function TypeBadge({ tipo }: { tipo: MovementType }) {
  return <Badge color={tipo === 'ingreso' ? 'green' : 'red'}>{MOVEMENT_TYPE_LABELS[tipo]}</Badge>;
}

/** An amount with + for ingreso and - for egreso. */
export function SignedAmount({ tipo, monto, className }: { tipo: MovementType; monto: number; className?: string }) {
  const { formatting } = useBusiness();
  return (
    <span
      className={cn(
        'whitespace-nowrap font-semibold tabular-nums',
        tipo === 'ingreso' ? 'text-emerald-700' : 'text-red-700',
        className,
      )}
    >
      {tipo === 'ingreso' ? '+' : '-'}
      {formatMoney(monto, formatting)}
    </span>
  );
}

export function ListSkeleton({ rows = 4 }: { rows?: number }) {
  return (
    <div className="space-y-3" aria-busy="true" aria-label="Cargando">
      {Array.from({ length: rows }, (_, i) => (
        <Skeleton key={i} className="h-16" />
      ))}
    </div>
  );
}

/** The value colour of a balance: green positive, red negative. */
export const signColor = (n: number) => (n > 0 ? 'text-emerald-700' : n < 0 ? 'text-red-700' : 'text-slate-900');
