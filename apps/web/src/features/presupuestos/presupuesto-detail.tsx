import { ArrowLeft, Check, FileOutput, Pencil, Send, Truck, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import type { ConvertirDestino } from '@mostrador/shared/presupuestos';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog } from '@/components/ui/dialog';
import { ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDate, formatMoney, formatNumber } from '@/lib/format';
import { CompartirButton } from '../impresion/compartir';
import { useCan } from '../permissions/permissions.api';
import { ConvertirDialog } from './convertir-dialog';
import { ImprimirButton, PresupuestoEstadoBadge } from './documento-ui';
import { useCambiarEstado, usePresupuesto } from './presupuestos.api';

export function PresupuestoDetailPage() {
  const { id } = useParams();
  const { formatting } = useBusiness();
  const can = useCan();
  const q = usePresupuesto(id);
  const estado = useCambiarEstado(id ?? '');
  const [convertir, setConvertir] = useState<ConvertirDestino | null>(null);
  const [anular, setAnular] = useState(false);
  if (!q.data) return q.error ? <ErrorNote>{errorMessage(q.error)}</ErrorNote> : <Skeleton className="h-64" />;
  const p = q.data;
  const editar = can('presupuestos', 'editar');
  const abierto = ['borrador', 'enviado', 'aceptado', 'vencido'].includes(p.estado);

  return (
    <div>
      <Link
        to="/presupuestos"
        className="mb-3 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-blue-700"
      >
        <ArrowLeft className="h-4 w-4" aria-hidden /> Presupuestos
      </Link>
      <PageHeader
        title={`Presupuesto #${p.numero}`}
        description={`${p.cliente_nombre} · ${formatDate(p.fecha, formatting)} · vence el ${formatDate(p.vence, formatting)}`}
        actions={<PresupuestoEstadoBadge estado={p.estado} />}
      />
      <div className="mb-4 flex flex-wrap gap-2">
        {editar && ['borrador', 'enviado', 'vencido'].includes(p.estado) && (
          <Link
            to={`/presupuestos/${p.id}/editar`}
            className="inline-flex h-10 items-center gap-2 rounded-lg bg-white px-4 text-sm font-medium text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50"
          >
            <Pencil className="h-4 w-4" aria-hidden /> Editar
          </Link>
        )}
        <ImprimirButton tipo="presupuesto" id={p.id} />
        <CompartirButton tipo="presupuesto" id={p.id} label="Enviar o compartir" />
        {editar && p.estado === 'borrador' && (
          <Button variant="secondary" loading={estado.isPending} onClick={() => estado.mutate('enviado')}>
            <Send className="h-4 w-4" aria-hidden /> Marcar enviado
          </Button>
        )}
        {editar && ['borrador', 'enviado'].includes(p.estado) && (
          <Button variant="success" loading={estado.isPending} onClick={() => estado.mutate('aceptado')}>
            <Check className="h-4 w-4" aria-hidden /> Marcar aceptado
          </Button>
        )}
        {editar && abierto && can('ventas', 'editar') && (
          <Button onClick={() => setConvertir('venta')}>
            <FileOutput className="h-4 w-4" aria-hidden /> Convertir en venta
          </Button>
        )}
        {editar && abierto && can('remitos', 'editar') && (
          <Button variant="secondary" onClick={() => setConvertir('remito')}>
            <Truck className="h-4 w-4" aria-hidden /> Convertir en remito
          </Button>
        )}
        {abierto && can('presupuestos', 'eliminar') && (
          <Button variant="ghost" onClick={() => setAnular(true)}>
            <XCircle className="h-4 w-4" aria-hidden /> Anular
          </Button>
        )}
      </div>
      {estado.error && <ErrorNote>{errorMessage(estado.error, 'No se pudo cambiar el estado.')}</ErrorNote>}
      {p.venta_id && (
        <p className="mb-4 rounded-lg bg-violet-50 p-3 text-sm text-violet-900">
          Convertido en la venta #{p.venta_numero}.
        </p>
      )}
      {p.remito_id && (
        <p className="mb-4 rounded-lg bg-violet-50 p-3 text-sm text-violet-900">
          Convertido en el{' '}
          <Link className="font-medium underline" to={`/remitos/${p.remito_id}`}>
            remito #{p.remito_numero}
          </Link>
          .
        </p>
      )}
      <div className="relative overflow-x-auto rounded-xl border border-slate-200 bg-white shadow-sm">
        <table className="w-full text-sm">
          <thead className="bg-slate-50 text-left text-xs uppercase text-slate-500">
            <tr>
              <th className="px-4 py-2">Producto</th>
              <th className="px-4 py-2 text-right">Cantidad</th>
              <th className="hidden px-4 py-2 text-right sm:table-cell">Precio</th>
              <th className="hidden px-4 py-2 text-right sm:table-cell">Descuento</th>
              <th className="px-4 py-2 text-right">Importe</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {p.items.map((i) => (
              <tr key={i.posicion}>
                <td className="px-4 py-2 text-slate-900">{i.nombre}</td>
                <td className="px-4 py-2 text-right tabular-nums">{formatNumber(i.cantidad, formatting)}</td>
                <td className="hidden px-4 py-2 text-right tabular-nums sm:table-cell">
                  {formatMoney(i.precio_unitario, formatting)}
                </td>
                <td className="hidden px-4 py-2 text-right tabular-nums sm:table-cell">
                  {i.descuento ? `−${formatMoney(i.descuento, formatting)}` : '—'}
                </td>
                <td className="px-4 py-2 text-right font-medium tabular-nums">{formatMoney(i.subtotal, formatting)}</td>
              </tr>
            ))}
          </tbody>
        </table>
        <dl className="space-y-1 border-t border-slate-200 px-4 py-3 text-sm">
          {p.descuento > 0 && (
            <div className="flex justify-end gap-6 text-slate-600">
              <dt>Descuento</dt>
              <dd className="w-36 text-right tabular-nums">−{formatMoney(p.descuento, formatting)}</dd>
            </div>
          )}
          <div className="flex justify-end gap-6 text-base font-semibold text-slate-900">
            <dt>Total</dt>
            <dd className="w-36 text-right tabular-nums" data-testid="presupuesto-total">
              {formatMoney(p.total, formatting)}
            </dd>
          </div>
        </dl>
      </div>
      {p.notas && <p className="mt-4 whitespace-pre-line text-sm text-slate-600">Notas: {p.notas}</p>}
      {convertir && <ConvertirDialog presupuesto={p} destino={convertir} onClose={() => setConvertir(null)} />}
      <ConfirmDialog
        open={anular}
        onOpenChange={setAnular}
        title={`Anular el presupuesto #${p.numero}`}
        message="Un presupuesto anulado no se puede editar ni convertir. ¿Lo anulás?"
        confirmLabel="Anular presupuesto"
        cancelLabel="Volver"
        onConfirm={() => estado.mutateAsync('anulado')}
      />
    </div>
  );
}
