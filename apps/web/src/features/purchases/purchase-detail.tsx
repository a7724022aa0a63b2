import { useDownload } from '@/lib/download';
import { ArrowLeft, Ban, CheckCircle2, Download, PackageCheck, Pencil, Printer, RotateCcw, Trash2 } from 'lucide-react';
import { useState, type ReactNode } from 'react';
import { Link, useLocation, useNavigate, useParams } from 'react-router';
import { PAYMENT_CONDITION_LABELS, paymentMethodLabel, PURCHASE_STATE_LABELS, type Purchase } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { Card, ErrorNote, Skeleton } from '@/components/ui/misc';
import { useCan, useCounterControls } from '@/features/permissions/permissions.api';
import { StatusNote } from '@/features/products/inventory-ui';
import { errorMessage } from '@/lib/api';
import { formatDate, formatDateTime, formatMoney, formatNumber } from '@/lib/format';
import { FacturaDetail } from './factura-detail';
import { ConfirmAction, pendingText, PurchaseStateBadge } from './purchase-ui';
import { purchasesPath, useDeletePurchase, usePurchase, useSetPurchaseState } from './purchases.api';
import { RecepcionDialog } from './recepcion-dialog';
import { RecepcionesSection } from './recepciones-section';
import { fetchSugerencias, type RecepcionResult } from './recepciones.api';
import { SugerenciasDialog, type SugerenciasTarget } from './sugerencias-dialog';
import { api } from '@/lib/api';
import type { Recepcion } from '@mostrador/shared';

type Action = 'recibir' | 'recibir-partes' | 'revertir' | 'cancelar' | 'eliminar';

/** While printing, only the order shows (the shell's sidebar and bars are hidden). */
const PRINT_CSS = `@media print {
  body * { visibility: hidden !important; }
  #orden-imprimible, #orden-imprimible * { visibility: visible !important; }
  #orden-imprimible { position: absolute; inset: 0 auto auto 0; width: 100%; padding: 0; border: 0; box-shadow: none; }
  @page { margin: 14mm; }
}`;

function Info({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <dt className="text-xs text-slate-500">{label}</dt>
      <dd className="mt-0.5 text-sm text-slate-900">{children}</dd>
    </div>
  );
}

/** "Recibido 4 · faltan 6" under a line of a purchase received in part. */
function ReceivedText({ i }: { i: NonNullable<Purchase['items']>[number] }) {
  const { formatting } = useBusiness();
  return (
    <span className="block text-xs text-slate-500 print:hidden">
      Recibido {formatNumber(i.cantidad_recibida, formatting)}
      {i.cantidad_pendiente > 0 && (
        <span className="font-medium text-amber-700"> · faltan {formatNumber(i.cantidad_pendiente, formatting)}</span>
      )}
    </span>
  );
}

function accountText(p: Purchase) {
  if (!p.cuenta_id) return null;
  if (p.cuenta_estado === 'pagado') return 'Pagada';
  if (p.cuenta_estado === 'vencido') return 'Vencida, sin pagar';
  return 'Pendiente de pago';
}

/** /compras/{id}: the order with its lines, its state actions, print and export. */
export function PurchaseDetailPage() {
  const { id } = useParams();
  const { businessId, business, formatting } = useBusiness();
  const navigate = useNavigate();
  const location = useLocation();
  const can = useCan();
  const purchase = usePurchase(id);
  const setState = useSetPurchaseState();
  const remove = useDeletePurchase();
  const [action, setAction] = useState<Action | null>(null);
  const [sugerencias, setSugerencias] = useState<SugerenciasTarget | null>(null);
  // After "Marcar como recibida" the suggestion waits behind a button instead of a dialog.
  const [offer, setOffer] = useState<SugerenciasTarget | null>(null);
  const { verCostos } = useCounterControls();
  const [notice, setNotice] = useState<string | null>((location.state as { notice?: string } | null)?.notice ?? null);
  const exporter = useDownload('No se pudo exportar la orden.');

  const back = (
    <Link
      to="/compras"
      className="mb-2 inline-flex items-center gap-1 text-sm text-slate-600 hover:text-slate-900 print:hidden"
    >
      <ArrowLeft className="h-4 w-4" aria-hidden />
      Órdenes de compra
    </Link>
  );
  if (purchase.error) {
    return (
      <div>
        {back}
        <ErrorNote>{errorMessage(purchase.error, 'No se pudo cargar la compra.')}</ErrorNote>
      </div>
    );
  }
  const p = purchase.data;
  if (!p) {
    return (
      <div className="space-y-4" aria-busy="true" aria-label="Cargando">
        <Skeleton className="h-8 w-64" />
        <Skeleton className="h-32" />
        <Skeleton className="h-48" />
      </div>
    );
  }

  const canEdit = can('stock', 'editar');
  // Suggested prices show costs and change prices (decision 0023).
  const canPrice = verCostos && can('productos', 'editar');
  const partial = p.estado === 'recibida_parcial';
  const canDelete = can('stock', 'eliminar');
  const paid = p.cuenta_estado === 'pagado';
  const editable = p.estado === 'pendiente' && !paid;
  const received = p.estado === 'recibida';
  const cancelled = p.estado === 'cancelada';
  const name = p.proveedor_nombre ?? 'Sin proveedor';

  const run = async (estado: 'recibida' | 'pendiente' | 'cancelada', message: string) => {
    await setState.mutateAsync({ id: p.id, estado });
    setNotice(message);
    if (estado === 'recibida' && canPrice) await suggestLast();
  };

  /** After "Marcar como recibida": the prices its reception suggests, if any. */
  const suggestLast = async () => {
    try {
      const recs = await api.get<Recepcion[]>(`${purchasesPath(businessId!)}/${p.id}/recepciones`);
      const last = recs.filter((r) => !r.revertida_en).at(-1);
      if (!last) return;
      const { sugerencias: list } = await fetchSugerencias(businessId!, p.id, last.id);
      if (list.length) setOffer({ compraId: p.id, recepcionId: last.id, sugerencias: list });
    } catch {
      // The suggestion is optional: the reception itself went through.
    }
  };

  const afterReception = (r: RecepcionResult) => {
    const done = r.compra.estado === 'recibida';
    setNotice(
      done
        ? `Recepción ${r.recepcion.numero} registrada: la compra #${p.numero} quedó recibida.`
        : `Recepción ${r.recepcion.numero} registrada. ${pendingText(r.compra)} por recibir.`,
    );
    if (r.sugerencias.length) {
      setSugerencias({ compraId: p.id, recepcionId: r.recepcion.id, sugerencias: r.sugerencias });
    }
  };

  return (
    <div className="mx-auto max-w-5xl">
      <style>{PRINT_CSS}</style>
      {back}
      {notice && <StatusNote onClose={() => setNotice(null)}>{notice}</StatusNote>}
      {exporter.error && (
        <div className="mb-4">
          <ErrorNote>{exporter.error}</ErrorNote>
        </div>
      )}

      <div className="mb-4 space-y-3 print:hidden">
        <div>
          <h1 className="flex flex-wrap items-center gap-3 text-2xl font-semibold text-slate-900">
            Compra #{p.numero}
            <PurchaseStateBadge estado={p.estado} />
          </h1>
          <p className="mt-1 text-sm text-slate-500">
            {name} · {formatDate(p.fecha, formatting)}
          </p>
        </div>
        <div className="flex flex-wrap gap-2" role="group" aria-label="Acciones de la compra">
          {canEdit && p.estado === 'pendiente' && (
            <Button variant="success" onClick={() => setAction('recibir')}>
              <CheckCircle2 className="h-4 w-4" aria-hidden />
              Marcar como recibida
            </Button>
          )}
          {canEdit && (p.estado === 'pendiente' || partial) && (
            <Button variant={partial ? 'success' : 'secondary'} onClick={() => setAction('recibir-partes')}>
              <PackageCheck className="h-4 w-4" aria-hidden />
              {partial ? 'Recibir lo pendiente' : 'Recibir en partes'}
            </Button>
          )}
          {canEdit && editable && (
            <Button variant="secondary" onClick={() => navigate(`/compras/${p.id}/editar`)}>
              <Pencil className="h-4 w-4" aria-hidden />
              Editar
            </Button>
          )}
          {canEdit && received && (
            <Button variant="secondary" onClick={() => setAction('revertir')}>
              <RotateCcw className="h-4 w-4" aria-hidden />
              Volver a pendiente
            </Button>
          )}
          <Button variant="secondary" onClick={() => window.print()}>
            <Printer className="h-4 w-4" aria-hidden />
            Imprimir
          </Button>
          <Button
            variant="secondary"
            loading={exporter.busy}
            onClick={async () => {
              await exporter.run(`${purchasesPath(businessId!)}/${p.id}/exportar`, {});
            }}
          >
            <Download className="h-4 w-4" aria-hidden />
            Exportar .xlsx
          </Button>
          {canEdit && !cancelled && !paid && !partial && (
            <Button variant="secondary" onClick={() => setAction('cancelar')}>
              <Ban className="h-4 w-4 text-red-600" aria-hidden />
              Cancelar compra
            </Button>
          )}
          {canDelete && !received && !paid && !partial && (
            <Button variant="ghost" onClick={() => setAction('eliminar')}>
              <Trash2 className="h-4 w-4 text-red-600" aria-hidden />
              Eliminar
            </Button>
          )}
        </div>
      </div>

      {offer && (
        <div className="mb-4 flex flex-col gap-3 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900 sm:flex-row sm:items-center sm:justify-between print:hidden">
          <p>
            {offer.sugerencias.length === 1
              ? 'Subió el costo de 1 producto: hay un precio sugerido que mantiene su margen.'
              : `Subió el costo de ${offer.sugerencias.length} productos: hay precios sugeridos que mantienen su margen.`}
          </p>
          <Button
            variant="secondary"
            className="shrink-0"
            onClick={() => {
              setSugerencias(offer);
              setOffer(null);
            }}
          >
            Ver precios sugeridos
          </Button>
        </div>
      )}
      {partial && (
        <p className="mb-4 rounded-lg border border-blue-200 bg-blue-50 p-3 text-sm text-blue-900 print:hidden">
          Recibida en parte: {pendingText(p).toLowerCase()} por recibir. Lo recibido ya está en el stock; la compra no
          se puede cancelar ni eliminar hasta recibir el resto.
        </p>
      )}
      <Card className="print:shadow-none">
        <div id="orden-imprimible" className="space-y-5">
          <div className="hidden print:block">
            <p className="text-sm text-slate-600">{business?.nombre}</p>
            <h2 className="text-xl font-semibold text-slate-900">
              Orden de compra #{p.numero} · {PAYMENT_CONDITION_LABELS[p.condicion_pago]}
            </h2>
          </div>
          <dl className="grid grid-cols-2 gap-4 md:grid-cols-4">
            <Info label="Proveedor">
              {p.proveedor_id ? (
                <Link className="text-blue-700 hover:underline print:text-slate-900" to="/proveedores">
                  {name}
                </Link>
              ) : (
                name
              )}
            </Info>
            <Info label="Fecha">{formatDate(p.fecha, formatting)}</Info>
            <Info label="Entrega">{p.fecha_entrega ? formatDate(p.fecha_entrega, formatting) : 'Sin fecha'}</Info>
            <Info label="Estado">
              <span className="print:hidden">
                <PurchaseStateBadge estado={p.estado} />
              </span>
              <span className="hidden print:inline">{PURCHASE_STATE_LABELS[p.estado]}</span>
              {p.recibida_en && (
                <span className="mt-0.5 block text-xs text-slate-500">
                  Recibida el {formatDateTime(p.recibida_en, formatting)}
                </span>
              )}
            </Info>
            <Info label="Condición de pago">{PAYMENT_CONDITION_LABELS[p.condicion_pago]}</Info>
            {p.condicion_pago === 'contado' ? (
              <Info label="Método de pago">{paymentMethodLabel(p.metodo_pago) || '—'}</Info>
            ) : (
              <Info label="Vencimiento">{p.fecha_vencimiento ? formatDate(p.fecha_vencimiento, formatting) : '—'}</Info>
            )}
            {p.cuenta_id && (
              <Info label="Cuenta por pagar">
                <Link className="text-blue-700 hover:underline print:text-slate-900" to="/finanzas/cuentas">
                  {accountText(p)}
                </Link>
              </Info>
            )}
            {p.movimiento_id && (
              <Info label="Egreso en Finanzas">{cancelled ? 'Anulado' : 'Registrado en «Compras»'}</Info>
            )}
          </dl>
          {p.observaciones && (
            <p className="whitespace-pre-line rounded-lg bg-slate-50 p-3 text-sm text-slate-700">{p.observaciones}</p>
          )}

          <ul
            className="divide-y divide-slate-100 border-y border-slate-200 md:hidden print:hidden"
            aria-label="Productos"
          >
            {(p.items ?? []).map((i) => (
              <li key={i.id} className="flex items-start justify-between gap-3 py-2 text-sm">
                <div className="min-w-0">
                  <p className="font-medium text-slate-900">{i.producto_nombre}</p>
                  <p className="text-xs text-slate-500">
                    {formatNumber(i.cantidad, formatting)} {i.unidad} × {formatMoney(i.precio_unitario, formatting)}
                  </p>
                  {partial && <ReceivedText i={i} />}
                  {received && i.precio_compra_anterior !== null && i.precio_compra_anterior !== i.precio_unitario && (
                    <p className="text-xs text-slate-500">
                      Costo anterior {formatMoney(i.precio_compra_anterior, formatting)}
                    </p>
                  )}
                </div>
                <span className="shrink-0 tabular-nums text-slate-900">{formatMoney(i.subtotal, formatting)}</span>
              </li>
            ))}
          </ul>
          <table className="hidden w-full text-sm md:table print:table">
            <caption className="sr-only">Productos de la compra #{p.numero}</caption>
            <thead>
              <tr className="border-b border-slate-200 text-left text-xs uppercase tracking-wide text-slate-500">
                <th scope="col" className="py-2 pr-3 font-medium">
                  Producto
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Cantidad
                </th>
                <th scope="col" className="py-2 pr-3 text-right font-medium">
                  Costo unitario
                </th>
                <th scope="col" className="py-2 text-right font-medium">
                  Subtotal
                </th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {(p.items ?? []).map((i) => (
                <tr key={i.id}>
                  <td className="py-2 pr-3">
                    <span className="font-medium text-slate-900">{i.producto_nombre}</span>
                    {i.producto_codigo && <span className="block text-xs text-slate-500">{i.producto_codigo}</span>}
                    {received &&
                      i.precio_compra_anterior !== null &&
                      i.precio_compra_anterior !== i.precio_unitario && (
                        <span className="block text-xs text-slate-500 print:hidden">
                          Costo anterior {formatMoney(i.precio_compra_anterior, formatting)}
                        </span>
                      )}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">
                    {formatNumber(i.cantidad, formatting)} {i.unidad}
                    {partial && <ReceivedText i={i} />}
                  </td>
                  <td className="py-2 pr-3 text-right tabular-nums">{formatMoney(i.precio_unitario, formatting)}</td>
                  <td className="py-2 text-right tabular-nums">{formatMoney(i.subtotal, formatting)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          <p className="flex items-baseline justify-end gap-4 border-t border-slate-300 pt-3">
            <span className="text-sm font-medium text-slate-600">Total</span>
            <span className="text-lg font-semibold tabular-nums text-slate-900">
              {formatMoney(p.total, formatting)}
            </span>
          </p>
        </div>
      </Card>

      {p.factura && <FacturaDetail f={p.factura} />}

      <RecepcionesSection
        compraId={p.id}
        canPrice={canPrice}
        onSuggest={setSugerencias}
        onNothing={(m) => setNotice(m)}
      />
      {canEdit && (
        <RecepcionDialog
          purchase={p}
          open={action === 'recibir-partes'}
          onOpenChange={(o) => !o && setAction(null)}
          onReceived={afterReception}
        />
      )}
      <SugerenciasDialog
        target={sugerencias}
        onClose={() => setSugerencias(null)}
        onApplied={(n) => setNotice(n === 1 ? 'Se actualizó 1 precio.' : `Se actualizaron ${n} precios.`)}
      />

      <ConfirmAction
        open={action === 'recibir'}
        onOpenChange={(o) => !o && setAction(null)}
        title="Marcar como recibida"
        confirmLabel="Sí, la recibe"
        variant="success"
        onConfirm={() => run('recibida', `Compra #${p.numero} recibida: stock y costos actualizados.`)}
      >
        <p>Se suma al stock cada producto de la compra #{p.numero} y su costo pasa a ser el de esta compra.</p>
      </ConfirmAction>
      <ConfirmAction
        open={action === 'revertir'}
        onOpenChange={(o) => !o && setAction(null)}
        title="Volver a pendiente"
        confirmLabel="Volver a pendiente"
        onConfirm={() => run('pendiente', `Compra #${p.numero} pendiente otra vez: se descontó el stock recibido.`)}
      >
        <p>Se descuenta del stock lo que entró con esta compra y cada costo vuelve al anterior si no cambió.</p>
      </ConfirmAction>
      <ConfirmAction
        open={action === 'cancelar'}
        onOpenChange={(o) => !o && setAction(null)}
        title="Cancelar compra"
        confirmLabel="Cancelar compra"
        variant="danger"
        onConfirm={() => run('cancelada', `Compra #${p.numero} cancelada.`)}
      >
        <p>¿Seguro que querés cancelar la compra #{p.numero}? Una compra cancelada ya no se puede modificar.</p>
        <p>
          {received ? 'Se descuenta el stock recibido. ' : ''}
          {p.condicion_pago === 'contado' ? 'El egreso en Finanzas queda anulado.' : 'Se elimina la cuenta por pagar.'}
        </p>
      </ConfirmAction>
      <ConfirmAction
        open={action === 'eliminar'}
        onOpenChange={(o) => !o && setAction(null)}
        title="Eliminar compra"
        confirmLabel="Eliminar"
        variant="danger"
        onConfirm={async () => {
          await remove.mutateAsync(p.id);
          navigate('/compras', { replace: true, state: { notice: `Compra #${p.numero} eliminada.` } });
        }}
      >
        <p>
          ¿Estás seguro de que querés eliminar la compra #{p.numero}? Se borran sus líneas y su{' '}
          {p.condicion_pago === 'contado' ? 'egreso en Finanzas' : 'cuenta por pagar'}.
        </p>
      </ConfirmAction>
    </div>
  );
}
