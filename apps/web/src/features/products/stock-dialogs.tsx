import { useState, type ReactNode } from 'react';
import {
  ADJUSTMENT_REASONS,
  milliToNumber,
  STOCK_ORIGIN_LABELS,
  type Product,
  type StockOrigin,
} from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { Badge, EmptyState, ErrorNote } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { readDecimal } from '@/lib/decimal-input';
import { formatDateTime, formatNumber } from '@/lib/format';
import { Pager, RowsSkeleton } from './inventory-ui';
import { useProductStock, useSeveralDepositos } from '@/features/depositos/depositos.api';
import { DepositoSelect, StockPorDeposito } from '@/features/depositos/stock-por-deposito';
import { STOCK_PAGE, useAdjustStock, useStockMovements } from './products.api';

type Direction = 'sumar' | 'restar';

function AdjustForm({ product, onDone }: { product: Product; onDone: (message?: string) => void }) {
  const { formatting } = useBusiness();
  const adjust = useAdjustStock();
  const [direction, setDirection] = useState<Direction>('restar');
  const [cantidad, setCantidad] = useState('');
  const [motivo, setMotivo] = useState('');
  const several = useSeveralDepositos();
  const [deposito, setDeposito] = useState('');
  const depositoId = several ? deposito || several[0].id : undefined;
  const enDeposito = useProductStock(product.id, Boolean(several)).data?.find((d) => d.deposito_id === depositoId);
  const base = enDeposito ? enDeposito.stock : product.stock_actual;
  const [errors, setErrors] = useState<{ cantidad?: string; motivo?: string; form?: string }>({});
  // A leading minus ("-4") means taking out, like «Egreso (restar)»: the two always agree.
  const read = readDecimal(cantidad, 'signedQuantity');
  const milli = read.ok && read.value !== null ? Math.round(Math.abs(read.value) * 1000) : null;
  const signed = milli === null ? null : direction === 'sumar' ? milli : -milli;
  const after = signed === null ? null : Math.round(base * 1000) + signed;
  const typeCantidad = (text: string) => {
    setCantidad(text);
    if (/^\s*[-−]/.test(text)) setDirection('restar');
  };
  const choose = (d: Direction) => {
    setDirection(d);
    if (d === 'sumar') setCantidad((t) => t.replace(/^\s*[-−]\s*/, ''));
  };

  const submit = async (e: React.FormEvent) => {
    e.preventDefault();
    const errs: typeof errors = {};
    if (!read.ok) errs.cantidad = read.message;
    else if (milli === null) errs.cantidad = 'Este campo es obligatorio.';
    else if (milli <= 0) errs.cantidad = 'La cantidad debe ser mayor a 0.';
    if (!motivo.trim()) errs.motivo = 'Indicá el motivo del ajuste.';
    setErrors(errs);
    if (Object.keys(errs).length) return;
    try {
      const r = await adjust.mutateAsync({
        id: product.id,
        cantidad: milliToNumber(signed!),
        motivo: motivo.trim(),
        ...(depositoId ? { deposito_id: depositoId } : {}),
      });
      onDone(
        `Stock de «${product.nombre}»: ${formatNumber(r.stock_anterior, formatting)} → ${formatNumber(r.stock_actual, formatting)} ${product.unidad}.`,
      );
    } catch (err) {
      setErrors({ form: errorMessage(err, 'No se pudo registrar el ajuste.') });
    }
  };

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <DepositoSelect id="aj-deposito" value={depositoId ?? ''} onChange={setDeposito} />
      <p className="text-sm text-slate-600">
        Stock actual{enDeposito ? ` en ${enDeposito.deposito_nombre}` : ''}:{' '}
        <strong className="text-slate-900">{formatNumber(base, formatting)}</strong> {product.unidad}
      </p>
      <fieldset>
        <legend className="mb-1 block text-sm font-medium text-slate-700">Movimiento</legend>
        <div className="grid grid-cols-2 gap-2">
          {(['sumar', 'restar'] as const).map((d) => (
            <label
              key={d}
              className={cn(
                'flex cursor-pointer items-center justify-center gap-2 rounded-lg border px-3 py-2 text-sm font-medium',
                direction === d
                  ? d === 'sumar'
                    ? 'border-emerald-500 bg-emerald-50 text-emerald-800'
                    : 'border-red-500 bg-red-50 text-red-800'
                  : 'border-slate-300 text-slate-600',
              )}
            >
              <input
                type="radio"
                name="direccion"
                value={d}
                checked={direction === d}
                onChange={() => choose(d)}
                className="sr-only"
              />
              {d === 'sumar' ? 'Ingreso (sumar)' : 'Egreso (restar)'}
            </label>
          ))}
        </div>
      </fieldset>
      <Field id="aj-cantidad" label="Cantidad" required error={errors.cantidad}>
        <Input
          id="aj-cantidad"
          inputMode="decimal"
          autoComplete="off"
          autoFocus
          value={cantidad}
          onChange={(e) => typeCantidad(e.target.value)}
          aria-invalid={Boolean(errors.cantidad)}
        />
      </Field>
      <Field id="aj-motivo" label="Motivo" required error={errors.motivo}>
        <Input
          id="aj-motivo"
          list="aj-motivos"
          maxLength={200}
          value={motivo}
          onChange={(e) => setMotivo(e.target.value)}
          aria-invalid={Boolean(errors.motivo)}
          placeholder="Rotura, recuento, vencimiento…"
        />
        <datalist id="aj-motivos">
          {ADJUSTMENT_REASONS.map((m) => (
            <option key={m} value={m} />
          ))}
        </datalist>
      </Field>
      {after !== null && milli !== null && milli > 0 && (
        <p className={cn('text-sm', after < 0 ? 'text-red-700' : 'text-slate-600')} aria-live="polite">
          Quedará en <strong>{formatNumber(milliToNumber(after), formatting)}</strong> {product.unidad}
          {after < 0 && ' — el stock no puede quedar negativo'}
        </p>
      )}
      {errors.form && <ErrorNote>{errors.form}</ErrorNote>}
      <div className="flex justify-end gap-3 pt-2">
        <Button variant="secondary" onClick={() => onDone()}>
          Cancelar
        </Button>
        <Button type="submit" loading={adjust.isPending}>
          Registrar ajuste
        </Button>
      </div>
    </form>
  );
}

export function StockAdjustDialog({
  product,
  onClose,
}: {
  product: Product | null;
  onClose: (message?: string) => void;
}) {
  return (
    <Dialog
      open={product !== null}
      onOpenChange={(o) => !o && onClose()}
      title="Ajustar stock"
      description={product ? product.nombre : undefined}
    >
      {product && <AdjustForm product={product} onDone={onClose} />}
    </Dialog>
  );
}

const ORIGIN_COLORS: Record<StockOrigin, 'gray' | 'green' | 'red' | 'blue' | 'purple' | 'yellow'> = {
  inicial: 'gray',
  venta: 'blue',
  anulacion: 'yellow',
  compra: 'green',
  ajuste: 'purple',
  importacion: 'gray',
  devolucion: 'yellow',
  remito: 'blue',
  transferencia: 'purple',
};

function History({ product }: { product: Product }) {
  const { formatting } = useBusiness();
  const [page, setPage] = useState(0);
  const movements = useStockMovements(product.id, page);
  if (movements.error) return <ErrorNote>{errorMessage(movements.error, 'No se pudo cargar el historial.')}</ErrorNote>;
  if (movements.isLoading) return <RowsSkeleton rows={4} />;
  const rows = movements.data?.rows ?? [];
  if (!rows.length) return <EmptyState title="Este producto todavía no tiene movimientos de stock" />;
  return (
    <div>
      <StockPorDeposito productId={product.id} unidad={product.unidad} />
      <ul className="divide-y divide-slate-100" aria-label="Movimientos de stock">
        {rows.map((m) => (
          <li key={m.id} className="flex items-start justify-between gap-3 py-3">
            <div className="min-w-0">
              <div className="flex flex-wrap items-center gap-2">
                <Badge color={ORIGIN_COLORS[m.origen]}>{STOCK_ORIGIN_LABELS[m.origen]}</Badge>
                {m.motivo && m.motivo !== STOCK_ORIGIN_LABELS[m.origen] && (
                  <span className="truncate text-sm text-slate-800">{m.motivo}</span>
                )}
              </div>
              <p className="mt-1 text-xs text-slate-500">
                {formatDateTime(m.fecha, formatting)}
                {m.usuario && ` · ${m.usuario.nombre}`}
              </p>
            </div>
            <div className="text-right">
              <p className={cn('font-semibold tabular-nums', m.cantidad < 0 ? 'text-red-700' : 'text-emerald-700')}>
                {m.cantidad > 0 ? '+' : ''}
                {formatNumber(m.cantidad, formatting)}
              </p>
              <p className="text-xs text-slate-500">queda {formatNumber(m.stock_resultante, formatting)}</p>
            </div>
          </li>
        ))}
      </ul>
      <Pager
        page={page}
        pageSize={STOCK_PAGE}
        total={movements.data?.total ?? 0}
        onPage={setPage}
        label="movimientos"
        one="movimiento"
      />
    </div>
  );
}

/** A history of one product (stock, prices) in a dialog that names the product. */
export function ProductHistoryDialog({
  product,
  onClose,
  title,
  body,
}: {
  product: Product | null;
  onClose: () => void;
  title: string;
  body: (p: Product) => ReactNode;
}) {
  return (
    <Dialog
      open={product !== null}
      onOpenChange={(o) => !o && onClose()}
      title={title}
      description={product ? product.nombre : undefined}
      className="sm:max-w-xl"
    >
      {product && body(product)}
    </Dialog>
  );
}

/** Who changed the stock, when, how much and why. */
export function StockHistoryDialog({ product, onClose }: { product: Product | null; onClose: () => void }) {
  return (
    <ProductHistoryDialog
      product={product}
      onClose={onClose}
      title="Historial de stock"
      body={(p) => <History product={p} />}
    />
  );
}
