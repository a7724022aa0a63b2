import type { ColumnDef } from '@tanstack/react-table';
import { Printer, RotateCcw } from 'lucide-react';
import type { ComprobanteList } from '@mostrador/shared/facturacion';
import { Button } from '@/components/ui/button';
import { cn } from '@/lib/cn';
import { formatDate, formatMoney, type Formatting } from '@/lib/format';
import { comprobanteTitulo, EstadoBadge, rechazoMensaje } from './comprobante-ui';

export type ComprobanteRow = ComprobanteList['comprobantes'][number];

const isNota = (c: ComprobanteRow) => c.tipo.startsWith('nota');

/**
 * The comprobantes table's columns. Newest first, always: the API pages the list and sorts it by
 * nothing else, so no header sorts (sorting one page in the browser would mislead).
 */
export function comprobanteColumns({
  formatting,
  onRetry,
  retrying,
  onView,
}: {
  formatting: Formatting;
  /** Ask ARCA again (whoever can sell; only for one not authorised yet). */
  onRetry: false | ((c: ComprobanteRow) => void);
  retrying: string | null;
  onView: (c: ComprobanteRow) => void;
}): ColumnDef<ComprobanteRow, unknown>[] {
  const col = (c: ColumnDef<ComprobanteRow, unknown>): ColumnDef<ComprobanteRow, unknown> => ({
    enableSorting: false,
    ...c,
  });
  return [
    col({
      id: 'comprobante',
      header: 'Comprobante',
      enableHiding: false,
      meta: { label: 'Comprobante', primary: true },
      cell: ({ row: { original: c } }) => (
        <div className="min-w-0">
          <span className="font-semibold whitespace-nowrap text-slate-900">{comprobanteTitulo(c)}</span>
          {c.estado === 'rechazado' && <p className="mt-1 text-red-700">{rechazoMensaje(c)}</p>}
          {c.emision === 'caea' && (
            <p
              className={cn('mt-1 text-xs', c.caea_informe === 'rechazado' ? 'text-red-700' : 'text-slate-600')}
              data-testid="caea-informe"
            >
              {c.caea_informe === 'informado'
                ? 'Emitida con CAEA · informada a ARCA'
                : c.caea_informe === 'rechazado'
                  ? c.error_mensaje
                  : 'Emitida con CAEA · falta informarla a ARCA'}
            </p>
          )}
        </div>
      ),
    }),
    col({
      id: 'estado',
      header: 'Estado',
      meta: { label: 'Estado' },
      cell: ({ row: { original: c } }) => <EstadoBadge estado={c.estado} />,
    }),
    col({
      id: 'fecha',
      header: 'Fecha',
      meta: { label: 'Fecha', className: 'whitespace-nowrap text-slate-600' },
      cell: ({ row: { original: c } }) => formatDate(c.fecha, formatting),
    }),
    col({
      id: 'venta',
      header: 'Venta',
      meta: { label: 'Venta', className: 'whitespace-nowrap text-slate-600' },
      cell: ({ row: { original: c } }) => `#${c.venta_numero}`,
    }),
    col({
      id: 'cliente',
      header: 'Cliente',
      meta: { label: 'Cliente', className: 'text-slate-700' },
      cell: ({ row: { original: c } }) => (
        <span>
          {c.receptor_nombre}
          {c.receptor_doc && <span className="block text-xs text-slate-500">{c.receptor_doc}</span>}
        </span>
      ),
    }),
    col({
      id: 'cae',
      header: 'CAE',
      meta: { label: 'CAE', defaultHidden: true, className: 'text-slate-600 tabular-nums' },
      cell: ({ row: { original: c } }) => (c.cae ? `${c.emision === 'caea' ? 'CAEA ' : ''}${c.cae}` : '—'),
    }),
    col({
      id: 'total',
      header: 'Total',
      meta: { label: 'Total', align: 'right' },
      cell: ({ row: { original: c } }) => (
        <span className={cn('font-semibold whitespace-nowrap', isNota(c) ? 'text-red-700' : 'text-slate-900')}>
          {isNota(c) ? '−' : ''}
          {formatMoney(c.total, formatting)}
        </span>
      ),
    }),
    col({
      id: 'acciones',
      header: 'Acciones',
      enableHiding: false,
      meta: { actions: true },
      cell: ({ row: { original: c } }) => (
        <span className="flex justify-end gap-2">
          {onRetry && (c.estado !== 'autorizado' || c.caea_informe === 'rechazado') && (
            <Button size="sm" variant="secondary" loading={retrying === c.id} onClick={() => onRetry(c)}>
              <RotateCcw className="h-4 w-4" aria-hidden /> Reintentar
            </Button>
          )}
          <Button
            size="sm"
            variant="secondary"
            onClick={() => onView(c)}
            aria-label={`Ver e imprimir ${comprobanteTitulo(c)}`}
          >
            <Printer className="h-4 w-4" aria-hidden /> Ver
          </Button>
        </span>
      ),
    }),
  ];
}
