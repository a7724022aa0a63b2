import { ArrowRight, Plus, Truck } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { TRANSFERENCIA_ESTADO_LABELS, type Transferencia } from '@mostrador/shared/depositos';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, Card, EmptyState, ErrorNote, PageHeader } from '@/components/ui/misc';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan } from '@/features/permissions/permissions.api';
import { ImprimirButton } from '@/features/presupuestos/documento-ui';
import { RowsSkeleton, StatusNote } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { formatDateTime, formatNumber } from '@/lib/format';
import { useDepositos, useTransferencias } from './depositos.api';
import { NuevaTransferenciaForm, RecibirForm } from './transferencia-dialogs';

function TransferenciaCard({ t, canEdit, onRecibir }: { t: Transferencia; canEdit: boolean; onRecibir: () => void }) {
  const faltan = t.items.filter((i) => (i.diferencia ?? 0) > 0);
  return (
    <Card className="p-4">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div>
          <h2 className="font-semibold text-slate-900">Transferencia #{t.numero}</h2>
          <p className="flex flex-wrap items-center gap-1 text-sm text-slate-600">
            {t.origen_nombre} <ArrowRight className="h-4 w-4" aria-label="hacia" /> {t.destino_nombre}
          </p>
          <p className="text-xs text-slate-500">
            Enviada el {formatDateTime(t.creado_en)}
            {t.creado_por_nombre ? ` por ${t.creado_por_nombre}` : ''}
            {t.recibido_en ? ` · recibida el ${formatDateTime(t.recibido_en)}` : ''}
          </p>
        </div>
        <Badge color={t.estado === 'recibida' ? (faltan.length ? 'yellow' : 'green') : 'blue'}>
          {t.estado === 'recibida' && faltan.length
            ? 'Recibida con diferencias'
            : TRANSFERENCIA_ESTADO_LABELS[t.estado]}
        </Badge>
      </div>
      <ul className="mt-3 divide-y divide-slate-100 text-sm" aria-label={`Productos de la transferencia ${t.numero}`}>
        {t.items.map((i) => (
          <li key={i.producto_id} className="flex justify-between gap-2 py-1">
            <span className="text-slate-800">{i.nombre}</span>
            <span className="text-right tabular-nums text-slate-700">
              {t.estado === 'recibida'
                ? `${formatNumber(i.cantidad_recibida)} de ${formatNumber(i.cantidad)}`
                : formatNumber(i.cantidad)}
              {(i.diferencia ?? 0) > 0 && (
                <span className="ml-2 font-medium text-amber-700">faltan {formatNumber(i.diferencia)}</span>
              )}
            </span>
          </li>
        ))}
      </ul>
      {t.observaciones && <p className="mt-2 text-sm text-slate-500">{t.observaciones}</p>}
      <div className="mt-3 flex flex-wrap items-start gap-2">
        {canEdit && t.estado === 'en_transito' && <Button onClick={onRecibir}>Recibir</Button>}
        <ImprimirButton tipo="transferencia" id={t.id} />
      </div>
    </Card>
  );
}

function TransferenciasScreen() {
  const canEdit = useCan()('productos', 'editar');
  const depositos = useDepositos();
  const list = useTransferencias();
  const [nueva, setNueva] = useState(false);
  const [recibiendo, setRecibiendo] = useState<Transferencia | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const several = (depositos.data ?? []).length > 1;

  return (
    <div>
      <PageHeader
        title="Transferencias"
        description="Mercadería entre depósitos: sale del origen al enviarla y entra al destino cuando la recibís."
        actions={
          canEdit &&
          several && (
            <Button onClick={() => setNueva(true)}>
              <Plus className="h-4 w-4" aria-hidden />
              Nueva transferencia
            </Button>
          )
        }
      />
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      {list.error ? (
        <ErrorNote>{errorMessage(list.error, 'No se pudieron cargar las transferencias.')}</ErrorNote>
      ) : list.isLoading || depositos.isLoading ? (
        <RowsSkeleton />
      ) : !several ? (
        <EmptyState icon={<Truck className="h-10 w-10" />} title="Tenés un solo depósito">
          <p>
            Para transferir mercadería, creá otro depósito en{' '}
            <Link to="/sucursales" className="font-medium text-blue-700 underline">
              Sucursales y depósitos
            </Link>
            .
          </p>
        </EmptyState>
      ) : (list.data ?? []).length === 0 ? (
        <EmptyState icon={<Truck className="h-10 w-10" />} title="Todavía no hay transferencias">
          {canEdit && (
            <Button className="mt-4" onClick={() => setNueva(true)}>
              <Plus className="h-4 w-4" aria-hidden />
              Crear la primera
            </Button>
          )}
        </EmptyState>
      ) : (
        <ul className="grid gap-3 lg:grid-cols-2" aria-label="Transferencias">
          {(list.data ?? []).map((t) => (
            <li key={t.id}>
              <TransferenciaCard t={t} canEdit={canEdit} onRecibir={() => setRecibiendo(t)} />
            </li>
          ))}
        </ul>
      )}
      <Dialog open={nueva} onOpenChange={setNueva} title="Nueva transferencia" className="max-w-2xl">
        {nueva && (
          <NuevaTransferenciaForm
            depositos={depositos.data ?? []}
            onDone={(t) => {
              setNueva(false);
              if (t) setNotice(`Transferencia #${t.numero} enviada: el stock ya salió de ${t.origen_nombre}.`);
            }}
          />
        )}
      </Dialog>
      <Dialog
        open={recibiendo !== null}
        onOpenChange={(o) => !o && setRecibiendo(null)}
        title={recibiendo ? `Recibir transferencia #${recibiendo.numero}` : ''}
      >
        {recibiendo && (
          <RecibirForm
            t={recibiendo}
            onDone={(t) => {
              setRecibiendo(null);
              if (t) setNotice(`Transferencia #${t.numero} recibida en ${t.destino_nombre}.`);
            }}
          />
        )}
      </Dialog>
    </div>
  );
}

/** /transferencias (issue 38): stock between depósitos, gated by `productos`. */
export default function TransferenciasPage() {
  return (
    <PermissionGate modulo="productos">
      <TransferenciasScreen />
    </PermissionGate>
  );
}
