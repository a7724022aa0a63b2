import { AlertTriangle, RefreshCw, RotateCcw } from 'lucide-react';
import { useState } from 'react';
import type { Caea, CaeaEstado } from '@mostrador/shared/caea';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Badge, Card, ErrorNote } from '@/components/ui/misc';
import { RowsSkeleton } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { cn } from '@/lib/cn';
import { formatDate, formatDateTime, formatMoney, todayIn } from '@/lib/format';
import { numeroComprobante, useActualizarCaea, useCaea, useReintentar } from './facturacion.api';

/*
 * The CAEA contingency in Facturación → Configuración (decision 0047): the CAEA punto de venta, the
 * CAEA of this fortnight and of the next with their vigencia and reporting deadline, whether
 * ARCA answers, and the comprobantes issued under a CAEA still to report (until when; «Plazo
 * vencido» past the CAEA's FchTopeInf) or rejected, with ARCA's reason and «Informar de nuevo».
 */

const quincenaLabel = (c: Pick<Caea, 'periodo' | 'orden'>) =>
  `${c.orden === 1 ? '1.ª' : '2.ª'} quincena de ${String(c.periodo % 100).padStart(2, '0')}/${Math.floor(c.periodo / 100)}`;

function CaeaLine({ titulo, caea }: { titulo: string; caea: Caea | null }) {
  const { formatting } = useBusiness();
  return (
    <div className="rounded-lg border border-slate-200 p-3 text-sm" data-testid={`caea-${titulo.toLowerCase()}`}>
      <p className="text-xs font-medium tracking-wide text-slate-500 uppercase">{titulo}</p>
      {!caea ? (
        <p className="mt-1 text-slate-600">Todavía no se pidió (se pide sola desde 5 días antes de la quincena).</p>
      ) : caea.caea ? (
        <>
          <p className="mt-1 font-semibold text-slate-900 tabular-nums">CAEA {caea.caea}</p>
          <p className="text-slate-600">
            {quincenaLabel(caea)}: del {formatDate(caea.vig_desde, formatting)} al{' '}
            {formatDate(caea.vig_hasta, formatting)}
          </p>
          {caea.tope_informe && (
            <p className="text-slate-600">Informar hasta el {formatDate(caea.tope_informe, formatting)}</p>
          )}
          <p className="text-slate-600">
            {caea.usados === 0
              ? caea.sin_movimiento === 'informado'
                ? 'Sin uso: informado a ARCA sin movimiento.'
                : 'Sin usar.'
              : `Usado en ${caea.usados} ${caea.usados === 1 ? 'comprobante' : 'comprobantes'}.`}
          </p>
          {caea.sin_movimiento === 'rechazado' && <p className="text-red-700">{caea.error_mensaje}</p>}
        </>
      ) : (
        <p className="mt-1 text-red-700">
          {quincenaLabel(caea)}: ARCA no lo otorgó. {caea.error_mensaje}
        </p>
      )}
    </div>
  );
}

function PorInformar({ estado }: { estado: CaeaEstado }) {
  const { formatting } = useBusiness();
  const retry = useReintentar();
  const [error, setError] = useState<string | null>(null);
  const hoy = todayIn(formatting.timezone);
  if (!estado.por_informar.length) {
    return <p className="text-sm text-slate-600">No hay comprobantes emitidos con CAEA pendientes de informar.</p>;
  }
  return (
    <div>
      <h3 className="text-sm font-semibold text-slate-900">Emitidos con CAEA, pendientes de informar a ARCA</h3>
      {error && <p className="mt-1 text-sm text-red-700">{error}</p>}
      <ul
        className="mt-2 divide-y divide-slate-100 rounded-lg border border-slate-200"
        aria-label="Pendientes de informar"
      >
        {estado.por_informar.map((c) => (
          <li key={c.id} className="flex flex-wrap items-start gap-2 p-3 text-sm" data-testid="caea-por-informar">
            <div className="min-w-0 flex-1">
              <p className="font-medium text-slate-900">
                {c.tipo_label} {numeroComprobante(c)} · {formatDate(c.fecha, formatting)} ·{' '}
                {formatMoney(c.total, formatting)}
              </p>
              {c.error_mensaje && (
                <p className={cn('mt-1', c.caea_informe === 'rechazado' ? 'text-red-700' : 'text-amber-800')}>
                  {c.error_mensaje}
                </p>
              )}
              {c.caea_informe === 'pendiente' && hoy < c.informable_desde && (
                <p className="mt-1 text-slate-600">
                  Se informa desde el {formatDate(c.informable_desde, formatting)}: ARCA recibe los comprobantes con
                  CAEA desde el día siguiente al inicio de su quincena.
                </p>
              )}
              {c.tope_informe && !c.fuera_de_termino && (
                <p className="mt-1 text-slate-600">Informar hasta el {formatDate(c.tope_informe, formatting)}</p>
              )}
            </div>
            {c.caea_informe === 'rechazado' ? (
              <>
                <Badge color="red">Rechazado</Badge>
                <Button
                  size="sm"
                  variant="secondary"
                  loading={retry.isPending && retry.variables === c.id}
                  onClick={async () => {
                    setError(null);
                    try {
                      await retry.mutateAsync(c.id);
                    } catch (e) {
                      setError(errorMessage(e, 'No se pudo informar de nuevo.'));
                    }
                  }}
                >
                  <RotateCcw className="h-4 w-4" aria-hidden /> Informar de nuevo
                </Button>
              </>
            ) : c.fuera_de_termino ? (
              <Badge color="red">Plazo vencido</Badge>
            ) : (
              <Badge color="yellow">Por informar</Badge>
            )}
          </li>
        ))}
      </ul>
    </div>
  );
}

export function CaeaPanel() {
  const { formatting } = useBusiness();
  const caea = useCaea();
  const actualizar = useActualizarCaea();
  const [error, setError] = useState<string | null>(null);
  const e = caea.data;
  return (
    <Card>
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div>
          <h2 className="text-base font-semibold text-slate-900">CAEA</h2>
          {e && (
            <p className="mt-1 text-sm text-slate-500">
              Punto de venta de CAEA {e.punto_venta}.{' '}
              {e.tras_minutos === 0
                ? 'Pasa a CAEA en cuanto ARCA deja de responder.'
                : `Pasa a CAEA después de ${e.tras_minutos} ${e.tras_minutos === 1 ? 'minuto' : 'minutos'} sin respuesta de ARCA.`}
            </p>
          )}
        </div>
        <Button
          variant="secondary"
          loading={actualizar.isPending}
          onClick={async () => {
            setError(null);
            try {
              await actualizar.mutateAsync();
            } catch (err) {
              setError(errorMessage(err, 'No se pudo consultar a ARCA.'));
            }
          }}
        >
          <RefreshCw className="h-4 w-4" aria-hidden /> Pedir e informar ahora
        </Button>
      </div>
      {error && <ErrorNote>{error}</ErrorNote>}
      {caea.error ? <ErrorNote>{errorMessage(caea.error)}</ErrorNote> : null}
      {!e && !caea.error ? <RowsSkeleton rows={3} /> : null}
      {e && (
        <div className="mt-4 space-y-4">
          {e.wsfe_sin_respuesta_desde && (
            <div
              role="alert"
              className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-800"
              data-testid="caea-contingencia"
            >
              <AlertTriangle className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
              <p>
                ARCA no responde desde {formatDateTime(e.wsfe_sin_respuesta_desde, formatting)}.{' '}
                {e.en_contingencia
                  ? 'Las ventas se facturan con el CAEA y se informan cuando ARCA vuelva.'
                  : `Si sigue así ${e.tras_minutos} ${e.tras_minutos === 1 ? 'minuto' : 'minutos'}, las ventas se facturan con el CAEA.`}
              </p>
            </div>
          )}
          <div className="grid gap-3 sm:grid-cols-2">
            <CaeaLine titulo="Vigente" caea={e.vigente} />
            <CaeaLine titulo="Próxima" caea={e.proxima} />
          </div>
          <PorInformar estado={e} />
        </div>
      )}
    </Card>
  );
}
