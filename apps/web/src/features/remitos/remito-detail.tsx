import { ArrowLeft, Receipt, XCircle } from 'lucide-react';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Field, Input } from '@/components/ui/input';
import { FormActions } from '@/components/ui/form-actions';
import { ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatNumber } from '@/lib/format';
import { CompartirButton } from '../impresion/compartir';
import { useCan } from '../permissions/permissions.api';
import { ImprimirButton, RemitoEstadoBadge } from '../presupuestos/documento-ui';
import { FacturarDialog } from './facturar-dialog';
import { useAnularRemito, useRemito } from './remitos.api';

export function RemitoDetailPage() {
  const { id } = useParams();
  const { formatting } = useBusiness();
  const can = useCan();
  const q = useRemito(id);
  const [facturar, setFacturar] = useState(false);
  const [anular, setAnular] = useState(false);
  if (!q.data) return q.error ? <ErrorNote>{errorMessage(q.error)}</ErrorNote> : <Skeleton className="h-64" />;
  const r = q.data;
  return (
    <div>
      <Link to="/remitos" className="mb-3 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-blue-700">
        <ArrowLeft className="h-4 w-4" aria-hidden /> Remitos
      </Link>
      <PageHeader
        title={`Remito #${r.numero}`}
        description={`${r.cliente_nombre} · ${formatDateTime(r.fecha, formatting)}`}
        actions={<RemitoEstadoBadge estado={r.estado} />}
      />
      <div className="mb-4 flex flex-wrap gap-2">
        <ImprimirButton tipo="remito" id={r.id} />
        <CompartirButton tipo="remito" id={r.id} />
        {r.estado === 'pendiente' && can('remitos', 'editar') && can('ventas', 'editar') && (
          <Button onClick={() => setFacturar(true)}>
            <Receipt className="h-4 w-4" aria-hidden /> Facturar
          </Button>
        )}
        {r.estado === 'pendiente' && can('remitos', 'eliminar') && (
          <Button variant="ghost" onClick={() => setAnular(true)}>
            <XCircle className="h-4 w-4" aria-hidden /> Anular
          </Button>
        )}
      </div>
      {r.venta_id && (
        <p className="mb-4 rounded-lg bg-emerald-50 p-3 text-sm text-emerald-900">
          Facturado en la venta #{r.venta_numero}.
        </p>
      )}
      {r.estado === 'anulado' && (
        <p className="mb-4 rounded-lg bg-red-50 p-3 text-sm text-red-800">
          Anulado{r.anulado_por ? ` por ${r.anulado_por.nombre}` : ''}
          {r.motivo_anulacion ? `: ${r.motivo_anulacion}` : ''}. La mercadería volvió al stock.
        </p>
      )}
      {r.presupuesto_id && (
        <p className="mb-4 text-sm text-slate-600">
          Según el{' '}
          <Link className="underline" to={`/presupuestos/${r.presupuesto_id}`}>
            presupuesto #{r.presupuesto_numero}
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
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {r.items.map((i) => (
              <tr key={i.posicion}>
                <td className="px-4 py-2 text-slate-900">{i.nombre}</td>
                <td className="px-4 py-2 text-right tabular-nums">{formatNumber(i.cantidad, formatting)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {r.notas && <p className="mt-4 whitespace-pre-line text-sm text-slate-600">Notas: {r.notas}</p>}
      {r.eventos.length > 0 && (
        <section className="mt-4" aria-labelledby="remito-historial">
          <h2 id="remito-historial" className="mb-1 text-sm font-semibold text-slate-700">
            Facturación
          </h2>
          <ol className="space-y-1 text-sm text-slate-600" data-testid="remito-eventos">
            {r.eventos.map((e, i) => (
              <li key={i}>
                {formatDateTime(e.creado_en, formatting)} ·{' '}
                {e.estado === 'facturado'
                  ? `Facturado en la venta #${e.venta_numero}`
                  : `Volvió a pendiente: ${e.motivo ?? `venta #${e.venta_numero} anulada`}`}
                {e.usuario ? ` (${e.usuario.nombre})` : ''}
              </li>
            ))}
          </ol>
        </section>
      )}
      {facturar && <FacturarDialog remitos={[r]} onClose={() => setFacturar(false)} />}
      {anular && <AnularDialog id={r.id} numero={r.numero} onClose={() => setAnular(false)} />}
    </div>
  );
}

function AnularDialog({ id, numero, onClose }: { id: string; numero: number; onClose: () => void }) {
  const anular = useAnularRemito(id);
  const [motivo, setMotivo] = useState('');
  const [error, setError] = useState<string | null>(null);
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={`Anular el remito #${numero}`}
      description="La mercadería vuelve al stock con un movimiento nuevo. Un remito anulado no se factura."
    >
      <form
        className="space-y-4"
        onSubmit={(e) => {
          e.preventDefault();
          setError(null);
          anular
            .mutateAsync(motivo)
            .then(onClose, (err: unknown) => setError(errorMessage(err, 'No se pudo anular el remito.')));
        }}
      >
        <Field id="anular-motivo" label="Motivo (opcional)">
          <Input id="anular-motivo" value={motivo} onChange={(e) => setMotivo(e.target.value)} maxLength={200} />
        </Field>
        <FormActions error={error} busy={anular.isPending} onCancel={onClose} submitLabel="Anular remito" />
      </form>
    </Dialog>
  );
}
