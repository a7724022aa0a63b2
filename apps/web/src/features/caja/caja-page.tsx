import { Download, LogOut, Pencil, Plus, Printer, Wallet } from 'lucide-react';
import { useState } from 'react';
import type { Caja, Turno } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { Badge, Card, ErrorNote, PageHeader, Skeleton } from '@/components/ui/misc';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan, useMayCloseTurno } from '@/features/permissions/permissions.api';
import { ImpresionDocumento } from '@/features/impresion/impresion-documento';
import { printTicket } from '@/features/pos/ticket';
import { useDownload } from '@/lib/download';
import { formatDateTime, formatMoney, todayIn, type Formatting } from '@/lib/format';
import { useCajas, useMedios, useTurno } from './caja.api';
import { MercadopagoSection } from '@/features/mercadopago/mercadopago-section';
import { MediosSection } from './medios-section';
import { CajaDialog, CloseDialog, MoveDialog, OpenTurnoDialog } from './turno-dialogs';
import { PrintableTurno, TurnoReport } from './turno-report';
import { TurnosList } from './turnos-list';
import { useSucursales } from '@/features/depositos/depositos.api';

/** Cajas and their turnos: open with a float, cash in and out, close with the count (issue 14). */
export default function CajaPage() {
  return (
    <PermissionGate modulo="ventas">
      <CajaScreen />
    </PermissionGate>
  );
}

function CajaScreen() {
  const { business, formatting } = useBusiness();
  const can = useCan();
  const cajas = useCajas();
  const [opening, setOpening] = useState<Caja | null>(null);
  const [moving, setMoving] = useState<Turno | null>(null);
  const [closing, setClosing] = useState<Turno | null>(null);
  const [shown, setShown] = useState<string | null>(null);
  /** The turno just closed: its closing prints by itself on the caja's printer. */
  const [recienCerrado, setRecienCerrado] = useState<string | null>(null);
  const [newCaja, setNewCaja] = useState(false);
  const [editing, setEditing] = useState<Caja | null>(null);
  const isAdmin = business?.rol === 'admin' || business?.es_creador;
  return (
    <>
      <PageHeader
        title="Caja"
        description="Abrí el turno con el fondo, registrá ingresos y retiros de efectivo y cerrá con el arqueo."
        actions={
          isAdmin && (
            <Button variant="secondary" onClick={() => setNewCaja(true)}>
              <Plus className="h-4 w-4" /> Nueva caja
            </Button>
          )
        }
      />
      {cajas.isError && <ErrorNote>No se pudieron cargar las cajas.</ErrorNote>}
      <div className="grid gap-4 md:grid-cols-2">
        {cajas.isPending && <Skeleton className="h-40" />}
        {cajas.data?.map((c) => (
          <CajaCard
            key={c.id}
            caja={c}
            canOperate={can('ventas', 'editar')}
            onOpen={() => setOpening(c)}
            onMove={setMoving}
            onClose={setClosing}
            onShow={setShown}
            onEdit={isAdmin ? () => setEditing(c) : undefined}
          />
        ))}
      </div>
      <TurnosList onShow={setShown} />
      {isAdmin && <MediosSection />}
      {isAdmin && <MercadopagoSection />}
      <OpenTurnoDialog caja={opening} onClose={() => setOpening(null)} />
      <CajaDialog open={newCaja} onClose={() => setNewCaja(false)} />
      <CajaDialog open={editing !== null} caja={editing} onClose={() => setEditing(null)} />
      <MoveDialog turno={moving} onClose={() => setMoving(null)} />
      <CloseDialog
        turno={closing}
        onClose={() => setClosing(null)}
        onClosed={(t) => {
          setClosing(null);
          setShown(t.id);
          setRecienCerrado(t.id);
        }}
      />
      <TurnoDialog
        id={shown}
        recienCerrado={shown !== null && shown === recienCerrado}
        onClose={() => {
          setShown(null);
          setRecienCerrado(null);
        }}
        business={business}
        formatting={formatting}
      />
    </>
  );
}

/** The sucursal a caja sells from (shown only when it is not the principal). */
function CajaSucursal({ id }: { id: string }) {
  const nombre = useSucursales().data?.find((s) => s.id === id)?.nombre;
  return nombre ? <p className="text-xs text-slate-500">Sucursal: {nombre}</p> : null;
}

function CajaCard({
  caja,
  canOperate,
  onOpen,
  onMove,
  onClose,
  onShow,
  onEdit,
}: {
  caja: Caja;
  onEdit?: () => void;
  canOperate: boolean;
  onOpen: () => void;
  onMove: (t: Turno) => void;
  onClose: (t: Turno) => void;
  onShow: (id: string) => void;
}) {
  const { formatting } = useBusiness();
  const turno = useTurno(caja.turno_abierto?.id ?? null).data;
  const medios = useMedios().data ?? [];
  const mayClose = useMayCloseTurno();
  const money = (n: number) => formatMoney(n, formatting);
  const open = caja.turno_abierto;
  const today = todayIn(formatting.timezone);
  const old = open && todayIn(formatting.timezone, new Date(open.abierto_en)) < today;
  return (
    <Card className="space-y-3">
      <div className="flex items-center justify-between gap-2">
        <div className="flex min-w-0 items-center gap-1">
          <h2 className="truncate text-lg font-semibold text-slate-900">{caja.nombre}</h2>
          {onEdit && (
            <Button variant="ghost" size="sm" onClick={onEdit} aria-label={`Editar ${caja.nombre}`}>
              <Pencil className="h-4 w-4" />
            </Button>
          )}
        </div>
        <Badge color={open ? 'green' : 'gray'}>{open ? `Turno #${open.numero} abierto` : 'Cerrada'}</Badge>
      </div>
      {caja.sucursal_id && <CajaSucursal id={caja.sucursal_id} />}
      {caja.punto_venta !== null && (
        <p className="text-xs text-slate-500">
          Factura desde el punto de venta {String(caja.punto_venta).padStart(4, '0')}
        </p>
      )}
      {!open ? (
        <>
          <p className="text-sm text-slate-600">No hay un turno abierto en esta caja.</p>
          {canOperate && (
            <Button onClick={onOpen}>
              <Wallet className="h-4 w-4" /> Abrir turno
            </Button>
          )}
        </>
      ) : (
        <>
          {old && (
            <p role="alert" className="rounded-md bg-amber-50 p-2 text-sm text-amber-800">
              Este turno está abierto desde otro día: cerralo para empezar uno nuevo.
            </p>
          )}
          <p className="text-sm text-slate-600">
            Abrió {open.abierto_por?.nombre ?? '—'} el {formatDateTime(open.abierto_en, formatting)} con{' '}
            {money(open.fondo_inicial)}. {open.ventas_cantidad} ventas
            {open.ventas_total === null ? '.' : ` por ${money(open.ventas_total)}.`}
            {turno && turno.devoluciones > 0 && ` Devoluciones: ${money(turno.devoluciones)}.`}
          </p>
          {turno?.arqueo_ciego && (
            <p className="rounded-md bg-slate-50 p-2 text-sm text-slate-700">
              Arqueo a ciegas: al cerrar, contá lo que hay por cada medio; lo esperado y la diferencia se ven después de
              cerrar.
            </p>
          )}
          {turno?.esperado && (
            <dl className="grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2" aria-label="Esperado en caja">
              {turno.esperado
                .filter((e) => e.monto !== 0)
                .map((e) => (
                  <div key={e.medio_pago_id} className="flex justify-between">
                    <dt className="text-slate-600">
                      {turno.por_medio.find((m) => m.medio_pago_id === e.medio_pago_id)?.nombre ??
                        medios.find((m) => m.id === e.medio_pago_id)?.nombre}
                    </dt>
                    <dd className="font-medium tabular-nums">{money(e.monto)}</dd>
                  </div>
                ))}
            </dl>
          )}
          {canOperate && turno && !mayClose(open.abierto_por?.id) && (
            <p className="text-sm text-slate-600">
              Este turno lo cierra quien lo abrió, si tiene permiso para cerrar turnos, o alguien con acceso total.
            </p>
          )}
          <div className="flex flex-wrap gap-2">
            {canOperate && turno && (
              <>
                <Button variant="secondary" onClick={() => onMove(turno)}>
                  Ingreso o retiro
                </Button>
                {mayClose(open.abierto_por?.id) && (
                  <Button onClick={() => onClose(turno)}>
                    <LogOut className="h-4 w-4" /> Cerrar turno
                  </Button>
                )}
              </>
            )}
            <Button variant="ghost" onClick={() => onShow(open.id)}>
              Ver detalle
            </Button>
          </div>
        </>
      )}
    </Card>
  );
}

function TurnoDialog({
  id,
  recienCerrado,
  onClose,
  business,
  formatting,
}: {
  id: string | null;
  recienCerrado: boolean;
  onClose: () => void;
  business: { nombre: string } | null;
  formatting: Formatting;
}) {
  const turno = useTurno(id).data;
  const medios = useMedios().data ?? [];
  const { businessId } = useBusiness();
  const download = useDownload('No se pudo exportar el turno.');
  return (
    <Dialog
      open={Boolean(id)}
      onOpenChange={(o) => !o && onClose()}
      title={turno ? `Turno #${turno.numero} · ${turno.caja_nombre}` : 'Turno'}
      className="max-w-2xl"
    >
      {!turno ? (
        <Skeleton className="h-40" />
      ) : (
        <div className="space-y-4">
          <div className="rounded-lg border border-slate-200 p-4">
            <TurnoReport turno={turno} medios={medios} business={business} formatting={formatting} format="a4" />
          </div>
          <PrintableTurno turno={turno} medios={medios} business={business} formatting={formatting} />
          {turno.estado === 'cerrado' && (
            <ImpresionDocumento
              tipo="cierre"
              id={turno.id}
              cajaId={turno.caja_id}
              auto={recienCerrado}
              onNavegador={() => printTicket('80mm')}
            />
          )}
          <div className="flex flex-wrap justify-end gap-2">
            <Button variant="secondary" onClick={() => printTicket('80mm')}>
              <Printer className="h-4 w-4" /> Imprimir 80 mm
            </Button>
            <Button variant="secondary" onClick={() => printTicket('a4')}>
              <Printer className="h-4 w-4" /> Imprimir A4
            </Button>
            {!turno.arqueo_ciego && (
              <Button
                variant="secondary"
                loading={download.busy}
                onClick={() => download.run(`/businesses/${businessId}/turnos/${turno.id}/exportar`)}
              >
                <Download className="h-4 w-4" /> Exportar
              </Button>
            )}
            <Button onClick={onClose}>Listo</Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}
