import type { Customer } from '@mostrador/shared/customers';
import { useCuenta } from '@/features/caja/caja.api';
import { cn } from '@/lib/cn';

/**
 * Cuenta corriente chosen: the customer's balance, credit limit and what is still available,
 * before charging, so an over-limit sale is not a surprise refusal.
 */
export function FiadoInfo({
  cliente,
  monto,
  online,
  canView,
  money,
}: {
  cliente: Customer | null;
  /** Cents this sale puts on the account. */
  monto: number;
  online: boolean;
  /** The member may see customers (the account is theirs to read). */
  canView: boolean;
  money: (cents: number) => string;
}) {
  const cuenta = useCuenta(cliente?.id ?? null, online && canView);
  const box = 'rounded-lg border p-3 text-sm';
  if (!cliente)
    return (
      <p className={cn(box, 'border-amber-200 bg-amber-50 text-amber-800')} data-testid="pos-fiado">
        Elegí el cliente para ver su saldo y su crédito disponible.
      </p>
    );
  if (!online || !canView)
    return (
      <p className={cn(box, 'border-slate-200 bg-slate-50 text-slate-600')} data-testid="pos-fiado">
        {online
          ? 'Sin permiso para ver clientes no se puede mostrar su saldo.'
          : 'Sin conexión no se puede consultar el saldo de la cuenta corriente.'}
      </p>
    );
  if (!cuenta.data)
    return (
      <p className={cn(box, 'border-slate-200 text-slate-500')} data-testid="pos-fiado">
        {cuenta.isError ? 'No se pudo leer la cuenta corriente del cliente.' : 'Consultando la cuenta corriente…'}
      </p>
    );
  const saldo = Math.round(cuenta.data.saldo * 100);
  const limite = cuenta.data.limite_credito === null ? null : Math.round(cuenta.data.limite_credito * 100);
  const disponible = limite === null ? null : limite - saldo;
  const excede = disponible !== null && monto > disponible;
  return (
    <dl
      className={cn(box, excede ? 'border-red-200 bg-red-50 text-red-800' : 'border-blue-200 bg-blue-50 text-blue-900')}
      data-testid="pos-fiado"
      aria-label={`Cuenta corriente de ${cuenta.data.cliente_nombre}`}
    >
      <div className="flex justify-between gap-2">
        <dt>Saldo actual</dt>
        <dd className="font-semibold tabular-nums">{money(saldo)}</dd>
      </div>
      <div className="flex justify-between gap-2">
        <dt>Crédito disponible</dt>
        <dd className="font-semibold tabular-nums">
          {disponible === null ? 'Sin límite' : `${money(disponible)} de ${money(limite!)}`}
        </dd>
      </div>
      <div className="flex justify-between gap-2">
        <dt>Saldo con esta venta</dt>
        <dd className="font-semibold tabular-nums">{money(saldo + monto)}</dd>
      </div>
      {excede && <p className="mt-1 font-medium">La venta supera el crédito disponible.</p>}
    </dl>
  );
}
