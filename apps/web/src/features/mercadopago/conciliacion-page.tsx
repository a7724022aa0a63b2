import { Download, RefreshCw } from 'lucide-react';
import { useState } from 'react';
import { CONCILIACION_TIPO_LABELS, type ConciliacionLinea } from '@mostrador/shared/mercadopago';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Field, Input } from '@/components/ui/input';
import { Badge, Card, EmptyState, ErrorNote, Skeleton } from '@/components/ui/misc';
import { errorMessage } from '@/lib/api';
import { useDownload } from '@/lib/download';
import { formatDate, formatDateTime, formatMoney, todayIn, type Formatting } from '@/lib/format';
import { conciliacionExportPath, useConciliacion } from './mercadopago.api';

const TIPO_COLOR: Record<ConciliacionLinea['tipo'], 'green' | 'red' | 'yellow' | 'gray'> = {
  conciliado: 'green',
  pagado_sin_venta: 'yellow',
  venta_sin_pago: 'red',
  monto_distinto: 'red',
};

const opt = (n: number | null, f: Formatting) => (n === null ? '—' : formatMoney(n, f));

/** /finanzas/mercadopago (decision 0052): MP's payments against the sales, per day, with MP's fee and net. */
export function ConciliacionPage() {
  const { businessId, formatting } = useBusiness();
  const hoy = todayIn(formatting.timezone);
  const [desde, setDesde] = useState(`${hoy.slice(0, 8)}01`);
  const [hasta, setHasta] = useState(hoy);
  const q = useConciliacion(desde, hasta);
  const excel = useDownload('No se pudo exportar la conciliación.');
  const m = (n: number) => formatMoney(n, formatting);
  const t = q.data?.totales;
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div className="min-w-0 flex-1 basis-72">
          <h1 className="text-xl font-semibold text-slate-900">Conciliación de Mercado Pago</h1>
          <p className="text-sm text-slate-500">
            Lo que cobró Mercado Pago contra las ventas registradas con ese medio, día por día.
          </p>
        </div>
        <div className="flex flex-wrap items-end gap-2">
          <Field id="conc-desde" label="Desde">
            <Input id="conc-desde" type="date" value={desde} max={hasta} onChange={(e) => setDesde(e.target.value)} />
          </Field>
          <Field id="conc-hasta" label="Hasta">
            <Input id="conc-hasta" type="date" value={hasta} min={desde} onChange={(e) => setHasta(e.target.value)} />
          </Field>
          <Button variant="secondary" loading={q.isFetching} onClick={() => void q.refetch()} aria-label="Actualizar">
            <RefreshCw className="h-4 w-4" />
          </Button>
          <Button
            variant="secondary"
            loading={excel.busy}
            disabled={!businessId}
            onClick={() => void excel.run(conciliacionExportPath(businessId ?? ''), { desde, hasta })}
          >
            <Download className="h-4 w-4" /> Exportar Excel
          </Button>
        </div>
      </div>
      {excel.error && <ErrorNote>{excel.error}</ErrorNote>}
      {q.isError ? (
        <ErrorNote>{errorMessage(q.error, 'No se pudo cargar la conciliación.')}</ErrorNote>
      ) : q.isPending ? (
        <div aria-busy="true" aria-label="Cargando la conciliación" className="space-y-3">
          <Skeleton className="h-24" />
          <Skeleton className="h-48" />
        </div>
      ) : (
        <>
          <div className="grid grid-cols-2 gap-3 md:grid-cols-5" data-testid="conc-totales">
            <Total label="Cobrado por MP" value={m(t!.cobrado)} />
            <Total label="Vendido" value={m(t!.vendido)} />
            <Total label="Comisión" value={m(t!.comision)} />
            <Total label="Neto" value={m(t!.neto)} />
            <Total label="Diferencia" value={m(t!.diferencia)} alert={t!.diferencia !== 0} />
          </div>
          <p className="text-sm text-slate-600">
            {t!.conciliados} conciliados · {t!.pagado_sin_venta} cobrados sin venta · {t!.venta_sin_pago} ventas sin
            cobro · {t!.monto_distinto} con montos distintos
          </p>
          {q.data.dias.length === 0 ? (
            <EmptyState title="Sin cobros ni ventas con Mercado Pago">
              No hay pagos de Mercado Pago ni ventas con ese medio entre esas fechas.
            </EmptyState>
          ) : (
            q.data.dias.map((d) => (
              <Card key={d.fecha} className="space-y-2">
                <div className="flex flex-wrap items-baseline justify-between gap-2">
                  <h2 className="font-semibold text-slate-900">{formatDate(d.fecha, formatting)}</h2>
                  <p className="text-sm text-slate-600">
                    Cobrado {m(d.cobrado)} · vendido {m(d.vendido)} · comisión {m(d.comision)} · neto {m(d.neto)}
                    {d.diferencia !== 0 && (
                      <span className="font-medium text-red-700"> · diferencia {m(d.diferencia)}</span>
                    )}
                  </p>
                </div>
                <div className="overflow-x-auto">
                  <table className="w-full text-sm">
                    <thead className="text-left text-xs text-slate-500">
                      <tr>
                        <th className="py-1 pr-3 font-medium">Hora</th>
                        <th className="py-1 pr-3 font-medium">Estado</th>
                        <th className="py-1 pr-3 font-medium">Venta</th>
                        <th className="py-1 pr-3 text-right font-medium">Cobrado</th>
                        <th className="py-1 pr-3 text-right font-medium">Vendido</th>
                        <th className="py-1 pr-3 text-right font-medium">Comisión</th>
                        <th className="py-1 pr-3 text-right font-medium">Neto</th>
                        <th className="py-1 text-right font-medium">Diferencia</th>
                      </tr>
                    </thead>
                    <tbody className="divide-y divide-slate-100">
                      {d.lineas.map((l, i) => (
                        <tr key={`${l.mp_pago_id ?? ''}-${l.venta_id ?? ''}-${i}`}>
                          <td className="whitespace-nowrap py-1.5 pr-3">{formatDateTime(l.fecha_hora, formatting)}</td>
                          <td className="py-1.5 pr-3">
                            <Badge color={TIPO_COLOR[l.tipo]}>{CONCILIACION_TIPO_LABELS[l.tipo]}</Badge>
                          </td>
                          <td className="py-1.5 pr-3">{l.venta_numero !== null ? `#${l.venta_numero}` : '—'}</td>
                          <td className="py-1.5 pr-3 text-right tabular-nums">{opt(l.monto_mp, formatting)}</td>
                          <td className="py-1.5 pr-3 text-right tabular-nums">{opt(l.monto_venta, formatting)}</td>
                          <td className="py-1.5 pr-3 text-right tabular-nums">{opt(l.comision, formatting)}</td>
                          <td className="py-1.5 pr-3 text-right tabular-nums">{opt(l.neto, formatting)}</td>
                          <td
                            className={`py-1.5 text-right tabular-nums ${l.diferencia !== 0 ? 'font-medium text-red-700' : ''}`}
                          >
                            {m(l.diferencia)}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </div>
              </Card>
            ))
          )}
        </>
      )}
    </div>
  );
}

function Total({ label, value, alert }: { label: string; value: string; alert?: boolean }) {
  return (
    <Card>
      <div role="group" aria-label={label}>
        <p className="text-xs font-medium text-slate-500">{label}</p>
        <p className={`mt-1 text-lg font-semibold tabular-nums ${alert ? 'text-red-700' : 'text-slate-900'}`}>
          {value}
        </p>
      </div>
    </Card>
  );
}
