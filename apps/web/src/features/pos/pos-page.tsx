import { Minus, Package, Plus, Printer, ScanBarcode, ShieldAlert, ShoppingCart, Trash2, Wrench } from 'lucide-react';
import { useQueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { CAJA_MESSAGES, percentOf, type Caja } from '@mostrador/shared/caja';
import { MERCADOPAGO_MEDIO, MERCADOPAGO_MESSAGES, type Orden } from '@mostrador/shared/mercadopago';
import type { Customer } from '@mostrador/shared/customers';
import { splitQuantity } from '@mostrador/shared/scale';
import { type Sale } from '@mostrador/shared/sales';
import type { AutorizacionInput } from '@mostrador/shared/autorizacion';
import { useBusiness } from '@/app/business-context';
import { Button } from '@/components/ui/button';
import { ConfirmDialog, Dialog } from '@/components/ui/dialog';
import { Field, Input, Textarea } from '@/components/ui/input';
import { Card, EmptyState, PageHeader } from '@/components/ui/misc';
import { useMedios } from '@/features/caja/caja.api';
import { FacturarToggle, SinFacturaNote, useFacturarModo } from '@/features/facturacion/pos-facturar';
import { OpenTurnoDialog } from '@/features/caja/turno-dialogs';
import { PermissionGate } from '@/features/permissions/permission-gate';
import { useCan, useCounterControls } from '@/features/permissions/permissions.api';
import { useSettings } from '@/features/settings/settings.api';
import { type SaleBody } from '@/features/sales/sales.api';
import { useDebounced } from '@/features/products/inventory-ui';
import { api, ApiError, errorMessage, request } from '@/lib/api';
import { cn } from '@/lib/cn';
import { moneyInputText, parseDecimal, quantityText } from '@/lib/decimal';
import { formatMoney, formatNumber } from '@/lib/format';
import {
  addItem,
  checkQuantity,
  isCountable,
  lineDiscount,
  lineDiscounts,
  lineSubtotal,
  newKey,
  overStock,
  removeLine,
  setLineDiscount,
  setPrice,
  setQuantity,
  totals,
  type CartLine,
  type CatalogItem,
} from './cart';
import { CHECKOUT_MESSAGES, checkout, discountCents } from './checkout';
import { singlePlan, splitPlan, type SplitRow } from './payments';
import { PaymentsPanel } from './payments-panel';
import { CashFields } from './cash-fields';
import { usePosCaja } from './device-caja';
import { FiadoInfo } from './fiado-info';
import { PaymentStep } from './payment-step';
import { CHEQUE_MESSAGES, type ChequeRecibidoInput } from '@mostrador/shared/cheques';
import {
  ChequeFields,
  EMPTY_CHEQUE,
  readCheque,
  type ChequeDraft,
  type ChequeErrors,
} from '@/features/cheques/cheque-fields';
import { TurnoIndicator } from './turno-indicator';
import { useWide } from './use-wide';
import { searchCatalog, useCatalogSearch } from './pos.api';
import { resolveScan } from './scan';
import { refusalBeep } from './beep';
import { CustomerPicker } from './customer-picker';
import { EmptyCatalogHint, SearchFeedback } from './search-hints';
import { localSale } from './offline/local-sale';
import { recordSale } from './offline/offline-pos';
import { AutorizacionDialog, isAuthorizable, type PedidoAutorizacion } from './autorizacion-dialog';
import { OfflinePanel } from './offline/offline-panel';
import { useOfflinePos } from './offline/use-offline-pos';
import { ListaSelector } from '../precios/lista-selector';
import { MpCobroDialog, type MpCobro } from '../mercadopago/mp-cobro-dialog';
import { aplicarLista } from '../precios/pos-lista';
import { PrintableTicket, printTicket, Ticket, type TicketExtras } from './ticket';
import { ImpresionVenta } from '@/features/impresion/impresion-venta';
import { CompartirButton } from '@/features/impresion/compartir';
import { useTicketBusiness } from './ticket-business';
import { saldoDespues, ticketExtras } from './ticket-extras';

/** The invoice of the sale just recorded (issue 16): loaded only when a sale has one. */
const PosComprobante = lazy(() => import('@/features/facturacion/pos-comprobante'));

export default function PosPage() {
  return (
    <PermissionGate modulo="ventas" accion="editar">
      <PointOfSale />
    </PermissionGate>
  );
}

/** Without a connection the customer's balance is unknown: their credit limit cannot be checked (issue 18). */
const OFFLINE_CREDIT_LIMIT =
  'Sin conexión no se puede vender en cuenta corriente a un cliente con límite de crédito: cobrá con otro medio o esperá a que vuelva la conexión.';

const NO_PRODUCTS_PERMISSION =
  'Para buscar productos necesitás permiso para ver productos. Pedíselo a un administrador del negocio.';

function PointOfSale() {
  const { business, businessId, formatting } = useBusiness();
  const can = useCan();
  const controls = useCounterControls();
  const canSearch = can('productos', 'ver');
  const money = (cents: number) => formatMoney(cents / 100, formatting);
  const searchRef = useRef<HTMLInputElement>(null);
  const [lines, setLines] = useState<CartLine[]>([]);
  /**
   * Quantities being typed, by line key, until they are valid and committed; `checked` once one
   * was refused (blur, Enter or Cobrar), and from then on its reason shows as it is corrected.
   */
  const [qtyDrafts, setQtyDrafts] = useState<Record<string, { text: string; checked: boolean }>>({});
  const [confirmEmpty, setConfirmEmpty] = useState(false);
  /** Cobrar was refused: the cash shortfall is shown as an error under "Paga con" too. */
  const [attempted, setAttempted] = useState(false);
  const [query, setQuery] = useState('');
  const [highlight, setHighlight] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const [cliente, setCliente] = useState<Customer | null>(null);
  /** What is typed in the customer box and not yet chosen. */
  const [clienteTexto, setClienteTexto] = useState('');
  /** The customer typed and chosen with Enter is still being looked up; F9 meanwhile waits for it. */
  const [picking, setPicking] = useState(false);
  const confirmAfterPick = useRef<{ key?: boolean; medioConfirmado?: boolean } | null>(null);
  /** The price list chosen at the counter; undefined: the customer's (issue 17). */
  const [listaElegida, setListaElegida] = useState<string | null | undefined>(undefined);
  const listaCliente = cliente?.lista_precios_id ?? null;
  const lista = listaElegida === undefined ? listaCliente : listaElegida;
  const listaRef = useRef(lista);
  useEffect(() => {
    listaRef.current = lista;
  }, [lista]);
  /** F9 with a medio other than cash: one more Enter confirms it. */
  const [askMedio, setAskMedio] = useState(false);
  const off = useOfflinePos();
  const medios = useMedios();
  const posCaja = usePosCaja();
  const { caja, isPending: turnoPending } = posCaja;
  // Without a connection: the open turno the device last saw, when it is this device's caja's.
  const offTurno = off.online ? null : (off.catalogo?.turno ?? null);
  const turno = posCaja.turno ?? (offTurno && (!caja || offTurno.caja_id === caja.id) ? offTurno : null);
  // Mercado Pago (decision 0052), as every member reads it from the cajas: the business's MP medio
  // and whether the caja selling has its QR or a Point. Configured but with neither here: the
  // medio is not offered at this caja (the server would refuse it without an order).
  const mpMedioId = posCaja.cajas.find((c) => c.mercadopago)?.mercadopago?.medio_pago_id ?? null;
  const mpCaja = posCaja.cajas.find((c) => c.id === (turno?.caja_id ?? caja?.id))?.mercadopago ?? null;
  const mpNoAca = mpMedioId !== null && mpCaja !== null && !mpCaja.qr && !mpCaja.point;
  const mediosActivos = (medios.data ?? off.catalogo?.medios_pago ?? []).filter(
    (m) => m.activo && !(mpNoAca && m.id === mpMedioId),
  );
  const [medioId, setMedioId] = useState('');
  const [split, setSplit] = useState<SplitRow[] | null>(null);
  /** The cheque the customer pays with, when a medio of the sale is a cheque (issue 37). */
  const [cheque, setCheque] = useState<ChequeDraft>(EMPTY_CHEQUE);
  const [chequeErrors, setChequeErrors] = useState<ChequeErrors>({});
  const medio = mediosActivos.find((m) => m.id === medioId) ?? mediosActivos[0];
  const efectivo = medio ? medio.tipo === 'efectivo' : true;
  const [openingTurno, setOpeningTurno] = useState(false);
  const wide = useWide();
  const [paymentStep, setPaymentStep] = useState(false);
  const [pagaCon, setPagaCon] = useState('');
  const [descuentoText, setDescuentoText] = useState('');
  const [observaciones, setObservaciones] = useState('');
  const [error, setError] = useState<string | null>(null);
  /** The last refusal another member may authorize with their PIN ("Pedir autorización"). */
  const [pedido, setPedido] = useState<PedidoAutorizacion | null>(null);
  const [autorizando, setAutorizando] = useState(false);
  /** Lines whose price a seller without cambiar_precios changes, to be authorized with a PIN. */
  const [preciosAbiertos, setPreciosAbiertos] = useState<ReadonlySet<string>>(new Set());
  const [done, setDone] = useState<SaleDone | null>(null);
  const facturarModo = useFacturarModo();
  const [facturar, setFacturar] = useState(false);
  const keyRef = useRef<{ key: string; body: string } | null>(null);
  /** Mercado Pago: the part being charged, and the approved orders not yet in a recorded sale. */
  const [mpCobro, setMpCobro] = useState<MpCobro | null>(null);
  const mpAprobadas = useRef<{ id: string; cents: number }[]>([]);
  // Whether MP is configured: from the cajas; a list read before it was configured learns it from
  // the sale's refusal (422) instead.
  const mpSabido = useRef(false);
  const mpMedioActual = () =>
    mpMedioId || mpSabido.current
      ? mediosActivos.find((m) =>
          mpMedioId ? m.id === mpMedioId : m.nombre === MERCADOPAGO_MEDIO && m.tipo === 'qr',
        )
      : undefined;
  const [saving, setSaving] = useState(false);
  const qc = useQueryClient();
  // Another business chosen in the top bar: its catalogue and customers are others, start over.
  const [cartBusiness, setCartBusiness] = useState(businessId);
  if (cartBusiness !== businessId) {
    setCartBusiness(businessId);
    setLines([]);
    setQtyDrafts({});
    setAttempted(false);
    setCliente(null);
    setListaElegida(undefined);
    setError(null);
  }

  const debounced = useDebounced(query, 120);
  const settings = useSettings(businessId).data;
  const balanza = settings?.balanza ?? off.catalogo?.configuracion.balanza ?? null;
  const requireTurno = settings?.caja_requiere_turno ?? off.catalogo?.configuracion.caja_requiere_turno ?? true;
  const search = useCatalogSearch(splitQuantity(debounced).termino, canSearch);
  const results = useMemo(
    () => (canSearch && query.trim() ? (search.data ?? []) : []),
    [canSearch, query, search.data],
  );

  const subtotal = totals(lines).subtotal;
  const pay = checkout(
    {
      subtotal,
      descuentoText,
      pagaConText: pagaCon,
      efectivo: efectivo && !split,
      descuentoMaximo: controls.descuentoMaximo,
      descuentosLineas: lineDiscounts(lines),
      ajustePorcentaje: split ? 0 : (medio?.ajuste_porcentaje ?? 0),
    },
    money,
  );
  const splitP = split ? splitPlan(pay.base, mediosActivos, split, money) : null;
  const t = { ...totals(lines, pay.descuento), total: splitP ? splitP.total : pay.total };
  const ajuste = t.total - pay.base;
  const vuelto = splitP ? (splitP.vuelto ?? (splitP.falta > 0 ? -splitP.falta : null)) : pay.vuelto;
  // A shortfall is shown in the totals while typing; as the field's error once Cobrar was refused.
  const descuentoError = pay.errors.descuento;
  // Over the seller's maximum: another member may authorize it with their PIN.
  const descuentoSobreMaximo =
    controls.descuentoMaximo !== null && descuentoError === CHECKOUT_MESSAGES.overMax(controls.descuentoMaximo);
  const pagaConError = pay.shortfall > 0 && !attempted ? undefined : pay.errors.pagaCon;
  // Cents this sale puts on cuenta corriente (null: none of its medios is the account).
  const tipoDe = (id: string) => mediosActivos.find((m) => m.id === id)?.tipo;
  const fiadoMonto = split
    ? split.some((r) => tipoDe(r.medioId) === 'cuenta_corriente')
      ? split
          .filter((r) => tipoDe(r.medioId) === 'cuenta_corriente')
          .reduce((sum, r) => sum + (parseDecimal(r.text, 2) ?? 0), 0)
      : null
    : medio?.tipo === 'cuenta_corriente'
      ? t.total
      : null;
  const conCheque = split ? split.some((r) => tipoDe(r.medioId) === 'cheque') : medio?.tipo === 'cheque';
  const qtyError = (l: CartLine) => {
    const draft = qtyDrafts[l.key];
    return draft?.checked && draft.text.trim() ? checkQuantity(draft.text, l.item).error : null;
  };

  const setDraft = (key: string, text: string | null, checked?: boolean) =>
    setQtyDrafts((d) => {
      const next = { ...d };
      if (text === null) delete next[key];
      else next[key] = { text, checked: checked ?? d[key]?.checked ?? false };
      return next;
    });

  const focusSearch = useCallback(() => searchRef.current?.focus(), []);

  const add = useCallback(
    (item: CatalogItem, cantidad = 1000) => {
      setLines((ls) => aplicarLista(addItem(ls, item, cantidad), listaRef.current));
      setHighlight(0);
      setError(null);
      setNotice(null);
      focusSearch();
    },
    [focusSearch, setError],
  );

  /** Codes are looked up one after the other, in the order they were scanned. */
  const lookups = useRef<Promise<unknown>>(Promise.resolve());

  /**
   * Enter in the search box: a scale label, a quantity before a code ("3*…"), the exact code a
   * scanner typed, the highlighted result or the best match (see resolveScan). The box is emptied
   * at once, so the next scan can start while this one is looked up (the same code scanned twice
   * adds two units).
   */
  function onSearchEnter() {
    const typed = query.trim();
    if (!typed || !businessId || !canSearch) return;
    const chosen = highlight > 0 && debounced.trim() === typed ? results[highlight] : undefined;
    const shown = results;
    setQuery('');
    setHighlight(0);
    lookups.current = lookups.current.then(async () => {
      try {
        const r = await resolveScan(typed, {
          balanza,
          shown,
          chosen,
          lookup: (term) => searchCatalog(businessId, term, 20),
        });
        if ('error' in r) {
          setNotice(r.error);
          refusalBeep();
          // Words no product holds in full come back to the box, its list open to choose from.
          if (r.retype) setQuery((q) => q || typed);
        } else add(r.item, r.cantidad);
      } catch (e) {
        setNotice(errorMessage(e));
      }
    });
  }

  function onSearchKey(e: KeyboardEvent<HTMLInputElement>) {
    if (e.key === 'ArrowDown') {
      e.preventDefault();
      setHighlight((h) => Math.min(h + 1, Math.max(0, results.length - 1)));
    } else if (e.key === 'ArrowUp') {
      e.preventDefault();
      setHighlight((h) => Math.max(0, h - 1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      onSearchEnter();
    } else if (e.key === 'Escape') {
      setQuery('');
      setHighlight(0);
    }
  }

  /**
   * Cobrar / F9: the quantities still being typed are applied if valid. Anything refused (a
   * quantity, the discount, "Paga con" or cash short of the total) stops the sale: every reason
   * shows under its field and the first of those fields gets the focus.
   */
  async function confirm(how: { key?: boolean; medioConfirmado?: boolean; autorizacion?: AutorizacionInput } = {}) {
    if (!businessId || lines.length === 0 || saving) return;
    if (picking) {
      confirmAfterPick.current = how;
      return;
    }
    setError(null);
    // The dialog asking for authorization keeps its refusal while it retries.
    if (!how.autorizacion) setPedido(null);
    let ready = lines;
    const refused: string[] = [];
    for (const l of lines) {
      const draft = qtyDrafts[l.key]?.text;
      if (draft === undefined || !draft.trim()) continue;
      const q = checkQuantity(draft, l.item);
      if (q.error === null) ready = setQuantity(ready, l.key, q.cantidad);
      else {
        setDraft(l.key, draft, true);
        refused.push(`qty-${l.key}`);
      }
    }
    const payment = checkout(
      {
        subtotal: totals(ready).subtotal,
        descuentoText,
        pagaConText: pagaCon,
        efectivo: efectivo && !split,
        // Authorized with a PIN: the server checks the discount against the authorizer's maximum.
        descuentoMaximo: how.autorizacion ? null : controls.descuentoMaximo,
        descuentosLineas: lineDiscounts(ready),
        ajustePorcentaje: split ? 0 : (medio?.ajuste_porcentaje ?? 0),
      },
      money,
    );
    for (const l of ready) if (lineDiscount(l).error) refused.push(`disc-${l.key}`);
    if (payment.errors.descuento) refused.push('pos-descuento');
    if (payment.errors.pagaCon) refused.push('pos-paga');
    if (refused.length) {
      setAttempted(true);
      // Centred: on a phone the bar with Cobrar covers the bottom of the screen.
      const field = document.getElementById(refused[0]);
      field?.focus({ preventScroll: true });
      field?.scrollIntoView?.({ block: 'center' });
      return;
    }
    if (ready !== lines) {
      setLines(ready);
      setQtyDrafts({});
    }
    if (!cliente && clienteTexto.trim()) {
      setError(
        `Escribiste «${clienteTexto.trim()}» en Cliente pero no elegiste ninguno: elegilo con Enter o borrá el texto para vender a consumidor final.`,
      );
      document.getElementById('pos-cliente')?.focus();
      return;
    }
    if (requireTurno && !turno) {
      setError(CAJA_MESSAGES.turnoRequired);
      return;
    }
    const plan = split
      ? splitPlan(payment.base, mediosActivos, split, money)
      : singlePlan(payment.base, medio, payment.pagaCon);
    if (split && !plan.pagos) {
      setError(plan.errors.plan ?? 'Revisá los montos de los pagos.');
      return;
    }
    const onAccount = (plan.pagos ?? []).some(
      (p) => mediosActivos.find((m) => m.id === p.medio_pago_id)?.tipo === 'cuenta_corriente',
    );
    if (onAccount && !cliente) {
      setError(CAJA_MESSAGES.accountNeedsCustomer);
      document.getElementById('pos-cliente')?.focus();
      return;
    }
    // A cheque goes to the cartera, the customer's: one per sale here, with its data.
    const chequeParts = (plan.pagos ?? []).filter(
      (p) => mediosActivos.find((m) => m.id === p.medio_pago_id)?.tipo === 'cheque',
    );
    let chequeDatos: ChequeRecibidoInput | null = null;
    if (chequeParts.length) {
      if (!cliente) {
        setError(CHEQUE_MESSAGES.necesitaCliente);
        document.getElementById('pos-cliente')?.focus();
        return;
      }
      if (chequeParts.length > 1) {
        setError('Cobrá un solo cheque por venta: dividí el resto con otros medios.');
        return;
      }
      const read = readCheque(cheque);
      if (!read.ok) {
        setChequeErrors(read.errors);
        setError('Completá los datos del cheque.');
        document.getElementById(`pos-cheque-${Object.keys(read.errors)[0]}`)?.focus();
        return;
      }
      setChequeErrors({});
      chequeDatos = read.value;
    }
    if (onAccount && !off.online && cliente?.limite_credito != null) {
      setError(OFFLINE_CREDIT_LIMIT);
      return;
    }
    if (how.key && (split || !efectivo) && !how.medioConfirmado) {
      setAskMedio(true);
      return;
    }
    // Mercado Pago (decision 0052): each MP part is paid by its own approved order before the sale.
    const mpMedio = mpMedioActual();
    let pagos:
      | (NonNullable<typeof plan.pagos>[number] & { mercadopago_orden_id?: string; cheque?: ChequeRecibidoInput })[]
      | null = plan.pagos;
    if (pagos && mpMedio && pagos.some((p) => p.medio_pago_id === mpMedio.id)) {
      if (!off.online) {
        setError(
          'Mercado Pago necesita internet: cobrá con otro medio (efectivo, tarjeta…) o esperá a que vuelva la conexión.',
        );
        return;
      }
      const libres = [...mpAprobadas.current];
      const faltan: number[] = [];
      pagos = pagos.map((p) => {
        if (p.medio_pago_id !== mpMedio.id) return p;
        const base = Math.round(p.monto * 100);
        const cents = base + percentOf(base, mpMedio.ajuste_porcentaje);
        const i = libres.findIndex((o) => o.cents === cents);
        if (i < 0) {
          faltan.push(cents);
          return p;
        }
        const [o] = libres.splice(i, 1);
        return { ...p, mercadopago_orden_id: o!.id };
      });
      if (faltan.length) {
        const cajaId = turno?.caja_id ?? caja?.id;
        if (!cajaId) {
          setError('Elegí la caja de este dispositivo para cobrar con Mercado Pago.');
          return;
        }
        setMpCobro({ cajaId, partes: faltan, qr: mpCaja?.qr ?? true, point: mpCaja?.point ?? true });
        return;
      }
    }
    if (pagos && chequeDatos) {
      const datos = chequeDatos;
      pagos = pagos.map((p) =>
        mediosActivos.find((m) => m.id === p.medio_pago_id)?.tipo === 'cheque' ? { ...p, cheque: datos } : p,
      );
    }
    const t = totals(ready, payment.descuento);
    const body: SaleBody = {
      negocio_id: businessId,
      cliente_id: cliente?.id ?? null,
      ...(listaElegida !== undefined ? { lista_precios_id: listaElegida } : {}),
      ...(pagos ? { pagos } : { metodo_pago: 'efectivo' }),
      ...(turno ? { turno_id: turno.id } : {}),
      observaciones: observaciones.trim() || null,
      descuento: t.descuento / 100,
      ...(facturarModo === 'siempre' || (facturarModo && facturar) ? { facturar: true } : {}),
      items: ready.map((l) => ({
        id: l.item.id,
        tipo: l.item.tipo,
        cantidad: l.cantidad / 1000,
        ...(l.precio !== l.item.precio ? { precio: l.precio / 100 } : {}),
        ...(lineDiscount(l).cents ? { descuento: lineDiscount(l).cents / 100 } : {}),
      })),
    };
    // The same cart retried (double click, lost answer) keeps its key, so it is recorded once.
    const fingerprint = JSON.stringify(body);
    if (!keyRef.current || keyRef.current.body !== fingerprint) keyRef.current = { key: newKey(), body: fingerprint };
    setSaving(true);
    try {
      // Kept on the device before anything else (issue 18): sent now if the server answers. An
      // authorized sale goes straight to the server with the same key: its PIN is never stored.
      const r = how.autorizacion
        ? {
            estado: 'registrada' as const,
            data: (
              await request<{ id: string; numero: number; sin_factura?: string }>('/ventas/record-sale', {
                method: 'POST',
                body: { ...body, autorizacion: how.autorizacion },
                headers: { 'Idempotency-Key': keyRef.current.key },
              })
            ).data,
          }
        : await recordSale(
            body as unknown as Record<string, unknown>,
            keyRef.current.key,
            `Venta por ${money(plan.total)}`,
          );
      const extras = ticketExtras({
        lines: ready,
        pagaCon: split ? null : payment.pagaCon,
        vuelto: split ? plan.vuelto : payment.vuelto,
      });
      const pending = () =>
        localSale({
          id: keyRef.current?.key ?? '',
          lines: ready,
          subtotal: t.subtotal,
          descuento: t.descuento,
          total: plan.total,
          pagos: plan.pagos,
          medios: mediosActivos,
          cliente,
          vendedor: null,
          observaciones: body.observaciones ?? null,
          turnoId: turno?.id ?? null,
        });
      const local = pending();
      resetSale();
      if (r.estado === 'registrada') {
        void qc.invalidateQueries({ predicate: (q) => q.queryKey.includes(businessId) });
        const sale = await api
          .get<Sale>(`/businesses/${businessId}/ventas/sales/${r.data.id}`)
          .catch(() => ({ ...local, id: r.data.id, numero: r.data.numero }));
        if (onAccount && cliente) extras.saldoCliente = await saldoDespues(businessId, cliente.id);
        setDone({ sale, extras, comprobanteId: sale.comprobante?.id, sinFactura: r.data.sin_factura, caja });
      } else {
        setDone({ sale: local, extras });
      }
    } catch (e) {
      // The authorization dialog shows its own refusals (a wrong PIN, too many attempts).
      if (how.autorizacion) throw e;
      // MP is configured: its parts are charged through an order first.
      if (
        !mpSabido.current &&
        e instanceof ApiError &&
        e.status === 422 &&
        e.detail === MERCADOPAGO_MESSAGES.ordenRequerida
      ) {
        mpSabido.current = true;
        setTimeout(() => void confirmRef.current({ medioConfirmado: true }), 0);
        return;
      }
      if (isAuthorizable(e)) {
        const lineas = lineDiscounts(ready);
        const bruto = t.subtotal + lineas;
        setPedido({
          code: e.code,
          porcentaje: bruto > 0 ? (100 * (t.descuento + lineas)) / bruto : 0,
          mensaje: errorMessage(e),
        });
      }
      setError(
        e instanceof ApiError && e.code === 'INSUFFICIENT_STOCK'
          ? `${errorMessage(e)} Corregí la cantidad y volvé a confirmar.`
          : errorMessage(e, 'No se pudo registrar la venta.'),
      );
    } finally {
      setSaving(false);
    }
  }

  /** After a sale ("Nueva venta"): every field as on a fresh screen. */
  function resetSale() {
    keyRef.current = null;
    mpAprobadas.current = [];
    setPreciosAbiertos(new Set());
    setPedido(null);
    setLines([]);
    setQtyDrafts({});
    setAttempted(false);
    setCliente(null);
    setListaElegida(undefined);
    setClienteTexto('');
    setMedioId('');
    setSplit(null);
    setCheque(EMPTY_CHEQUE);
    setChequeErrors({});
    setPaymentStep(false);
    setPagaCon('');
    setDescuentoText('');
    setObservaciones('');
    setFacturar(false);
    setQuery('');
    setHighlight(0);
    setNotice(null);
    setError(null);
  }

  // F2: back to the search box; F9 or Ctrl+Enter: confirm the sale.
  const confirmRef = useRef(confirm);
  useEffect(() => {
    confirmRef.current = confirm;
  });
  /** An approved MP order: kept for its part; once every part has one, the sale is recorded by itself. */
  const onMpAprobada = useCallback(
    (o: Orden) => {
      mpAprobadas.current = [...mpAprobadas.current, { id: o.id, cents: Math.round(o.monto * 100) }];
      const pendientes = (mpCobro?.partes.length ?? 0) - 1;
      setMpCobro((c) => (c && c.partes.length > 1 ? { ...c, partes: c.partes.slice(1) } : null));
      if (pendientes <= 0) void confirmRef.current({ medioConfirmado: true });
    },
    [mpCobro],
  );
  useEffect(() => {
    const how = confirmAfterPick.current;
    if (picking || !how) return;
    confirmAfterPick.current = null;
    void confirmRef.current(how);
  }, [picking]);
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent) => {
      if (e.key === 'F2') {
        e.preventDefault();
        focusSearch();
      } else if (e.key === 'F9' || (e.key === 'Enter' && (e.ctrlKey || e.metaKey))) {
        e.preventDefault();
        void confirmRef.current({ key: true });
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [focusSearch]);

  /** Medio, cash handed over and the account's balance: in the side panel, or the phone's payment step. */
  const paymentControls = (
    <>
      <PaymentsPanel
        medios={mediosActivos}
        medioId={medio?.id ?? ''}
        onMedio={setMedioId}
        split={split}
        onSplit={setSplit}
        errors={splitP?.errors ?? {}}
        status={splitP && splitP.falta === 0 ? splitP.errors.plan : undefined}
      />
      {conCheque && (
        <ChequeFields
          value={cheque}
          onChange={(d) => {
            setCheque(d);
            setChequeErrors({});
          }}
          errors={chequeErrors}
          idPrefix="pos-cheque"
        />
      )}
      {efectivo && !split && (
        <CashFields total={t.total} value={pagaCon} onChange={setPagaCon} error={pagaConError} money={money} />
      )}
      {fiadoMonto !== null && (
        <FiadoInfo
          cliente={cliente}
          monto={fiadoMonto}
          online={off.online}
          canView={can('clientes', 'ver')}
          money={money}
        />
      )}
    </>
  );
  const totalsList = (
    <dl className="space-y-1 text-sm">
      {(t.descuento > 0 || ajuste !== 0) && (
        <div className="flex justify-between text-slate-600">
          <dt>Subtotal</dt>
          <dd>{money(t.subtotal)}</dd>
        </div>
      )}
      {t.descuento > 0 && (
        <div className="flex justify-between text-slate-600">
          <dt>Descuento</dt>
          <dd>-{money(t.descuento)}</dd>
        </div>
      )}
      {ajuste !== 0 && (
        <div className="flex justify-between text-slate-600" data-testid="pos-ajuste">
          <dt>{ajuste > 0 ? 'Recargo del medio de pago' : 'Descuento del medio de pago'}</dt>
          <dd>{money(ajuste)}</dd>
        </div>
      )}
      <div className="flex items-baseline justify-between">
        <dt className="font-semibold text-slate-900">Total</dt>
        <dd className="text-3xl font-bold text-slate-900" data-testid="pos-total">
          {money(t.total)}
        </dd>
      </div>
      {vuelto !== null && (
        <div
          className={cn('flex justify-between font-medium', vuelto < 0 ? 'text-red-600' : 'text-emerald-700')}
          data-testid="pos-vuelto"
        >
          <dt>{vuelto < 0 ? 'Falta' : 'Vuelto'}</dt>
          <dd>{money(Math.abs(vuelto))}</dd>
        </div>
      )}
    </dl>
  );
  const errorBox = error && (
    <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm font-medium text-red-700">
      <p>{error}</p>
      {pedido && off.online && (
        <Button
          variant="secondary"
          size="sm"
          className="mt-2"
          data-testid="pedir-autorizacion"
          onClick={() => setAutorizando(true)}
        >
          Pedir autorización
        </Button>
      )}
    </div>
  );

  return (
    <div>
      <PageHeader
        title="Punto de venta"
        description={business ? `Vendiendo en ${business.nombre}` : undefined}
        actions={
          <p className="hidden text-xs text-slate-500 lg:block">
            <kbd className="rounded border border-slate-300 px-1">F2</kbd> buscar ·{' '}
            <kbd className="rounded border border-slate-300 px-1">Enter</kbd> agregar ·{' '}
            <kbd className="rounded border border-slate-300 px-1">F9</kbd> cobrar
          </p>
        }
      />
      <OfflinePanel state={off} turnoId={turno?.id ?? null} />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_380px]">
        <div className="min-w-0 space-y-4">
          {canSearch ? (
            <div className="relative">
              <label htmlFor="pos-search" className="mb-1 block text-sm font-medium text-slate-700">
                Buscar producto o servicio, o escanear código
              </label>
              <div className="relative">
                <ScanBarcode
                  className="pointer-events-none absolute left-3 top-1/2 h-5 w-5 -translate-y-1/2 text-slate-400"
                  aria-hidden
                />
                <Input
                  id="pos-search"
                  ref={searchRef}
                  autoFocus
                  value={query}
                  onChange={(e) => {
                    setQuery(e.target.value);
                    setHighlight(0);
                    setNotice(null);
                  }}
                  onKeyDown={onSearchKey}
                  placeholder="Nombre, código o código de barras"
                  className="h-12 pl-11 text-base"
                  autoComplete="off"
                  role="combobox"
                  aria-expanded={results.length > 0}
                  aria-controls="pos-results"
                  aria-activedescendant={results.length ? `pos-result-${highlight}` : undefined}
                />
              </div>
              {/* Above the list, which opens under it: a refusal stays readable beside its choices. */}
              {!notice && query.trim() && (
                <SearchFeedback
                  term={query.trim()}
                  searching={debounced !== query || search.isFetching}
                  found={results.length}
                />
              )}
              {notice && (
                <p role="status" className="mt-2 text-sm text-amber-700">
                  {notice}
                </p>
              )}
              {results.length > 0 && (
                <ul
                  id="pos-results"
                  role="listbox"
                  aria-label="Resultados"
                  className="absolute z-20 mt-1 max-h-80 w-full overflow-y-auto rounded-lg border border-slate-200 bg-white py-1 shadow-lg"
                >
                  {results.map((r, i) => (
                    <li
                      key={`${r.tipo}:${r.id}`}
                      id={`pos-result-${i}`}
                      role="option"
                      aria-selected={i === highlight}
                      onMouseDown={(e) => {
                        e.preventDefault();
                        setQuery('');
                        add(r);
                      }}
                      onMouseEnter={() => setHighlight(i)}
                      className={cn(
                        'flex min-h-11 cursor-pointer items-center gap-3 px-3 py-2 text-sm',
                        i === highlight ? 'bg-blue-50' : 'hover:bg-slate-50',
                      )}
                    >
                      {r.tipo === 'producto' ? (
                        <Package className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
                      ) : (
                        <Wrench className="h-4 w-4 shrink-0 text-slate-400" aria-hidden />
                      )}
                      <span className="min-w-0 flex-1">
                        {/* Two lines before cutting: the size at the end of a name tells products apart. */}
                        <span className="line-clamp-2 break-words font-medium text-slate-800">{r.nombre}</span>
                        <span className="block truncate text-xs text-slate-500">
                          {[r.codigo, r.codigo_barras].filter(Boolean).join(' · ') ||
                            (r.tipo === 'servicio' ? 'Servicio' : 'Sin código')}
                        </span>
                      </span>
                      {r.stock !== null && (
                        <span className={cn('text-xs', r.stock > 0 ? 'text-slate-500' : 'font-medium text-red-600')}>
                          {r.stock === 0 ? 'Sin stock' : `Stock ${formatNumber(r.stock / 1000, formatting)}`}
                        </span>
                      )}
                      <span className="w-24 text-right font-semibold text-slate-900">{money(r.precio)}</span>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ) : (
            <div>
              <p className="mb-1 text-sm font-medium text-slate-700">Buscar producto o servicio</p>
              <p
                role="note"
                className="flex items-start gap-2 rounded-lg border border-amber-200 bg-amber-50 p-3 text-sm text-amber-800"
              >
                <ShieldAlert className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
                {NO_PRODUCTS_PERMISSION}
              </p>
            </div>
          )}

          <div className="rounded-xl border border-slate-200 bg-white shadow-sm">
            <div className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
              <h2 className="font-semibold text-slate-900">Carrito</h2>
              <Button
                variant="ghost"
                className="h-11"
                disabled={lines.length === 0}
                onClick={() => setConfirmEmpty(true)}
              >
                Vaciar
              </Button>
            </div>
            {lines.length === 0 ? (
              <div className="p-4">
                <EmptyState icon={<ShoppingCart className="h-8 w-8" />} title="El carrito está vacío">
                  {canSearch
                    ? 'Buscá un producto o escaneá su código de barras para empezar.'
                    : 'Sin permiso para ver productos no se pueden agregar ítems.'}
                  {canSearch && <EmptyCatalogHint />}
                </EmptyState>
              </div>
            ) : (
              <ul className="divide-y divide-slate-100" aria-label="Ítems del carrito">
                {lines.map((l) => (
                  <CartRow
                    key={l.key}
                    line={l}
                    money={money}
                    sinStock={settings?.vender_sin_stock ?? false}
                    qtyDraft={qtyDrafts[l.key]?.text ?? null}
                    qtyError={qtyError(l)}
                    onQtyDraft={(text, checked) => setDraft(l.key, text, checked)}
                    onQuantity={(q) => {
                      setLines((ls) => aplicarLista(setQuantity(ls, l.key, q), lista));
                      setDraft(l.key, null);
                    }}
                    onPrice={
                      controls.cambiarPrecios || preciosAbiertos.has(l.key)
                        ? (p) => setLines((ls) => setPrice(ls, l.key, p))
                        : undefined
                    }
                    onUnlockPrice={off.online ? () => setPreciosAbiertos((s) => new Set(s).add(l.key)) : undefined}
                    onDiscount={(d) => setLines((ls) => setLineDiscount(ls, l.key, d))}
                    onRemove={() => {
                      setLines((ls) => removeLine(ls, l.key));
                      setDraft(l.key, null);
                      focusSearch();
                    }}
                    onDone={focusSearch}
                    compact={!controls.cambiarPrecios}
                  />
                ))}
              </ul>
            )}
          </div>
        </div>

        <Card className="h-fit space-y-4 lg:sticky lg:top-4">
          <TurnoIndicator
            turno={turno}
            caja={caja}
            cajas={posCaja.cajas}
            pending={turnoPending}
            requireTurno={requireTurno}
            onChoose={posCaja.choose}
            onOpen={() => setOpeningTurno(true)}
          />
          {wide && paymentControls}
          <CustomerPicker
            value={cliente}
            onChange={(c) => {
              setCliente(c);
              setLines((ls) =>
                aplicarLista(ls, listaElegida === undefined ? (c?.lista_precios_id ?? null) : listaElegida),
              );
            }}
            text={clienteTexto}
            onTextChange={setClienteTexto}
            onPicking={setPicking}
            canView={can('clientes', 'ver')}
            canCreate={can('clientes', 'editar')}
          />
          <ListaSelector
            value={lista}
            delCliente={listaCliente}
            canChange={controls.cambiarPrecios}
            allowed={canSearch}
            onChange={(id) => {
              setListaElegida(id === listaCliente ? undefined : id);
              setLines((ls) => aplicarLista(ls, id));
            }}
          />
          <Field
            id="pos-descuento"
            label="Descuento ($ o %)"
            error={descuentoError}
            hint={
              controls.descuentoMaximo === null
                ? undefined
                : `Hasta ${formatNumber(controls.descuentoMaximo, formatting)} %`
            }
          >
            <Input
              id="pos-descuento"
              inputMode="decimal"
              className="h-11"
              value={descuentoText}
              onChange={(e) => setDescuentoText(e.target.value)}
              placeholder="0"
              aria-invalid={Boolean(descuentoError)}
              aria-describedby={descuentoError ? 'pos-descuento-error' : undefined}
            />
          </Field>
          {descuentoSobreMaximo && off.online && (
            <Button
              variant="secondary"
              size="sm"
              data-testid="pedir-autorizacion-descuento"
              onClick={() => {
                const lineas = lineDiscounts(lines);
                const bruto = subtotal + lineas;
                const d = (discountCents(descuentoText, subtotal)?.cents ?? 0) + lineas;
                setPedido({
                  code: 'DISCOUNT_OVER_MAX',
                  porcentaje: bruto > 0 ? (100 * d) / bruto : 0,
                  mensaje: `El descuento de ${money(d)} supera tu máximo (${formatNumber(controls.descuentoMaximo ?? 0, formatting)} %).`,
                });
                setAutorizando(true);
              }}
            >
              Pedir autorización
            </Button>
          )}
          <Field id="pos-obs" label="Observaciones">
            <Textarea
              id="pos-obs"
              value={observaciones}
              maxLength={500}
              onChange={(e) => setObservaciones(e.target.value)}
              rows={2}
            />
          </Field>
          <FacturarToggle modo={facturarModo} checked={facturar} onChange={setFacturar} />
          {/* The total and Cobrar stay in view at the bottom of the screen while the fields above scroll. */}
          <div className="space-y-3 border-t border-slate-100 bg-white pt-3 lg:sticky lg:bottom-0 lg:-mx-5 lg:-mb-5 lg:rounded-b-xl lg:px-5 lg:pb-4">
            {(wide || !paymentStep) && totalsList}
            {(wide || !paymentStep) && errorBox}
            <div className="hidden lg:block">
              <Button
                size="lg"
                variant="success"
                className="w-full"
                disabled={lines.length === 0}
                loading={saving}
                onClick={() => void confirm()}
              >
                Cobrar {lines.length > 0 && money(t.total)}
              </Button>
            </div>
          </div>
        </Card>
      </div>

      {/* On a phone the total, the caja and the charge button stay in reach at the bottom. */}
      <div className="h-24 lg:hidden" aria-hidden />
      <div className="fixed inset-x-0 bottom-0 z-30 flex items-center gap-3 border-t border-slate-200 bg-white px-4 py-2 shadow-[0_-4px_12px_rgba(0,0,0,0.06)] lg:hidden">
        <div className="min-w-0 flex-1">
          <p className="truncate text-xs text-slate-500" data-testid="pos-caja-movil">
            {turno ? `${turno.caja_nombre} · Turno #${turno.numero}` : 'Sin turno de caja'} · {lines.length}{' '}
            {lines.length === 1 ? 'ítem' : 'ítems'}
          </p>
          <p className="truncate text-xl font-bold text-slate-900" data-testid="pos-total-movil">
            {money(t.total)}
          </p>
        </div>
        <Button
          size="lg"
          variant="success"
          disabled={lines.length === 0}
          onClick={() => {
            setError(null);
            setPaymentStep(true);
          }}
        >
          Cobrar
        </Button>
      </div>

      {!wide && (
        <PaymentStep
          open={paymentStep}
          onClose={() => setPaymentStep(false)}
          total={money(t.total)}
          saving={saving}
          onConfirm={() => void confirm({ medioConfirmado: true })}
        >
          {paymentControls}
          {totalsList}
          {errorBox}
        </PaymentStep>
      )}
      <ConfirmDialog
        open={confirmEmpty}
        onOpenChange={setConfirmEmpty}
        title="Vaciar carrito"
        message="¿Quitar todos los productos del carrito?"
        confirmLabel="Vaciar"
        onConfirm={async () => {
          setLines([]);
          setQtyDrafts({});
          setAttempted(false);
          setError(null);
          setTimeout(focusSearch, 0);
        }}
      />

      <Dialog
        open={askMedio}
        onOpenChange={setAskMedio}
        title={split ? '¿Cobrar con pago dividido?' : `¿Cobrar con ${medio?.nombre ?? ''}?`}
        description={`El total es ${money(t.total)}. Enter confirma; Escape vuelve a la venta.`}
        className="max-w-sm"
      >
        <div className="mt-2 flex justify-end gap-3">
          <Button variant="secondary" onClick={() => setAskMedio(false)}>
            Volver
          </Button>
          <Button
            autoFocus
            onClick={() => {
              setAskMedio(false);
              void confirm({ key: true, medioConfirmado: true });
            }}
          >
            {split ? 'Cobrar' : `Cobrar con ${medio?.nombre ?? ''}`}
          </Button>
        </div>
      </Dialog>

      <MpCobroDialog
        cobro={mpCobro}
        money={money}
        onAprobada={onMpAprobada}
        onCerrar={() => {
          setMpCobro(null);
          setError('No se cobró con Mercado Pago: elegí otro medio o volvé a cobrar.');
        }}
      />

      <OpenTurnoDialog
        caja={openingTurno ? caja : null}
        onClose={() => setOpeningTurno(false)}
        onOpened={(opened) => {
          posCaja.choose(opened.caja_id);
          setError(null);
          setTimeout(focusSearch, 0);
        }}
      />

      {businessId && (
        <AutorizacionDialog
          businessId={businessId}
          pedido={pedido}
          open={autorizando}
          onOpenChange={setAutorizando}
          onAuthorize={async (autorizacion) => {
            await confirm({ key: true, medioConfirmado: true, autorizacion });
            setAutorizando(false);
          }}
        />
      )}

      {done && (
        <SaleDoneDialog
          done={done}
          onClose={() => {
            setDone(null);
            setTimeout(focusSearch, 0);
          }}
        />
      )}
    </div>
  );
}

function CartRow({
  line,
  money,
  sinStock,
  qtyDraft,
  qtyError,
  onQtyDraft,
  onQuantity,
  onPrice,
  onUnlockPrice,
  onDiscount,
  onRemove,
  onDone,
  compact,
}: {
  line: CartLine;
  money: (cents: number) => string;
  /** The business sells without stock: a short line sells anyway and the stock goes negative. */
  sinStock: boolean;
  /** The quantity being typed, kept while it is refused. */
  qtyDraft: string | null;
  qtyError: string | null;
  /** `checked`: it was refused, show why. */
  onQtyDraft: (text: string | null, checked?: boolean) => void;
  onQuantity: (milli: number) => void;
  /** Absent without cambiar_precios: the price shows but cannot be changed. */
  onPrice?: (cents: number) => void;
  /** Without cambiar_precios: opens the price to change it, the sale then asking for authorization. */
  onUnlockPrice?: () => void;
  /** The line's discount as typed ("500" or "10%"). */
  onDiscount: (text: string) => void;
  onRemove: () => void;
  onDone: () => void;
  /** One row per line (a cashier who cannot change prices); tapping the name shows the whole line. */
  compact?: boolean;
}) {
  const { formatting } = useBusiness();
  const [expanded, setExpanded] = useState(false);
  // What is being typed; otherwise the inputs show the line (which a scan may have changed).
  const [priceDraft, setPriceText] = useState<string | null>(null);
  const qty = qtyDraft ?? quantityText(line.cantidad);
  const price = priceDraft ?? moneyInputText(line.precio);
  const priceValid = parseDecimal(price, 2) !== null;
  const countable = isCountable(line.item);
  /** A valid quantity is applied; an empty one goes back to the line's; a refused one stays, with its reason. */
  const commitQty = () => {
    if (qtyDraft === null) return true;
    if (!qtyDraft.trim()) {
      onQtyDraft(null);
      return true;
    }
    const q = checkQuantity(qtyDraft, line.item);
    if (q.error !== null) {
      onQtyDraft(qtyDraft, true);
      return false;
    }
    onQuantity(q.cantidad);
    return true;
  };
  const commitPrice = () => {
    const v = parseDecimal(price, 2);
    if (v !== null) onPrice?.(v);
    setPriceText(null);
    return true;
  };
  const enter = (commit: () => boolean) => (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === 'Enter') {
      e.preventDefault();
      if (commit()) onDone();
    }
  };
  const over = overStock(line);
  const discount = lineDiscount(line);
  const qtyId = `qty-${line.key}`;
  const qtyInput = (
    <>
      <label className="sr-only" htmlFor={qtyId}>
        Cantidad de {line.item.nombre}
      </label>
      <div className="w-14 shrink-0">
        <Input
          id={qtyId}
          inputMode={countable ? 'numeric' : 'decimal'}
          className="h-11 px-1 text-center"
          value={qty}
          aria-invalid={Boolean(qtyError)}
          aria-describedby={qtyError ? `${qtyId}-error` : undefined}
          onChange={(e) => onQtyDraft(e.target.value)}
          onBlur={commitQty}
          onKeyDown={(e) => {
            if (e.key === 'Escape' && qtyDraft !== null) {
              e.preventDefault();
              onQtyDraft(null);
            } else enter(commitQty)(e);
          }}
        />
      </div>
    </>
  );
  if (compact && !expanded && !discount.error && !line.descuento) {
    // Rush hour, for a cashier who cannot change prices: one row per line; "−" at 1 removes it.
    return (
      <li className="px-3 py-1.5" aria-label={line.item.nombre} data-testid="cart-line-compact">
        <div className="flex items-center gap-1.5">
          <button
            type="button"
            className="min-h-11 min-w-0 flex-1 text-left"
            aria-label={`Más opciones de ${line.item.nombre}`}
            onClick={() => setExpanded(true)}
          >
            <span className="block truncate text-sm font-medium text-slate-900">{line.item.nombre}</span>
            <span className={cn('block truncate text-xs', over ? 'font-medium text-amber-700' : 'text-slate-500')}>
              {over
                ? `Stock disponible: ${formatNumber((line.item.stock ?? 0) / 1000, formatting)}`
                : `${money(line.precio)} ${line.item.tipo === 'servicio' ? 'c/u' : `por ${line.item.unidad}`}`}
            </span>
          </button>
          <Button
            variant="secondary"
            size="icon"
            className="h-11 w-11 shrink-0"
            aria-label={line.cantidad <= 1000 ? `Quitar ${line.item.nombre}` : `Restar 1 de ${line.item.nombre}`}
            onClick={() => (line.cantidad <= 1000 ? onRemove() : onQuantity(line.cantidad - 1000))}
          >
            {line.cantidad <= 1000 ? <Trash2 className="h-4 w-4 text-red-600" /> : <Minus className="h-4 w-4" />}
          </Button>
          {qtyInput}
          <Button
            variant="secondary"
            size="icon"
            className="h-11 w-11 shrink-0"
            aria-label={`Sumar 1 a ${line.item.nombre}`}
            onClick={() => onQuantity(line.cantidad + 1000)}
          >
            <Plus className="h-4 w-4" />
          </Button>
          <p className="w-20 shrink-0 text-right text-sm font-semibold text-slate-900" data-testid="line-subtotal">
            {money(lineSubtotal(line))}
          </p>
        </div>
        {qtyError && (
          <p id={`${qtyId}-error`} role="alert" className="mt-1 text-xs text-red-600">
            {qtyError}
          </p>
        )}
      </li>
    );
  }
  return (
    <li className="px-4 py-3" aria-label={line.item.nombre}>
      <div className="flex items-start gap-3">
        <div className="min-w-0 flex-1">
          <p className="line-clamp-2 break-words font-medium text-slate-900" title={line.item.nombre}>
            {line.item.nombre}
          </p>
          <p className={cn('text-xs', over ? 'font-medium text-amber-700' : 'text-slate-500')}>
            {line.item.tipo === 'servicio'
              ? 'Servicio'
              : over
                ? `Stock disponible: ${formatNumber((line.item.stock ?? 0) / 1000, formatting)}${
                    sinStock ? ' · se vende igual y el stock queda en negativo' : ''
                  }`
                : (line.item.codigo_barras ?? line.item.codigo ?? line.item.unidad)}
          </p>
        </div>
        <p className="pt-0.5 text-right font-semibold text-slate-900" data-testid="line-subtotal">
          {money(lineSubtotal(line))}
        </p>
        <button
          type="button"
          className="-my-2 flex h-11 w-11 shrink-0 items-center justify-center rounded-md text-red-600 hover:bg-red-50"
          aria-label={`Quitar ${line.item.nombre}`}
          onClick={onRemove}
        >
          <Trash2 className="h-4 w-4" />
        </button>
      </div>
      <div className="mt-2 flex flex-wrap items-center gap-2 text-sm text-slate-500">
        <div className="flex items-center gap-1">
          <Button
            variant="secondary"
            size="icon"
            className="h-11 w-11"
            aria-label={`Restar 1 de ${line.item.nombre}`}
            disabled={line.cantidad <= 1000}
            onClick={() => onQuantity(line.cantidad - 1000)}
          >
            <Minus className="h-4 w-4" />
          </Button>
          {qtyInput}
          <Button
            variant="secondary"
            size="icon"
            className="h-11 w-11"
            aria-label={`Sumar 1 a ${line.item.nombre}`}
            onClick={() => onQuantity(line.cantidad + 1000)}
          >
            <Plus className="h-4 w-4" />
          </Button>
        </div>
        <span aria-hidden>× $</span>
        <label className="sr-only" htmlFor={`price-${line.key}`}>
          Precio de {line.item.nombre}
        </label>
        <div className="w-24 sm:w-28">
          <Input
            id={`price-${line.key}`}
            inputMode="decimal"
            className="h-11 text-right"
            value={price}
            readOnly={!onPrice}
            title={onPrice ? undefined : 'Sin permiso para cambiar precios'}
            aria-invalid={!priceValid}
            onChange={(e) => setPriceText(e.target.value)}
            onBlur={commitPrice}
            onKeyDown={enter(commitPrice)}
          />
        </div>
        {!onPrice && onUnlockPrice && (
          <Button
            variant="secondary"
            size="sm"
            aria-label={`Cambiar con autorización: ${line.item.nombre}`}
            onClick={() => {
              onUnlockPrice();
              setTimeout(() => document.getElementById(`price-${line.key}`)?.focus(), 0);
            }}
          >
            Cambiar
          </Button>
        )}
        <span className="text-xs">{line.item.tipo === 'servicio' ? 'c/u' : `por ${line.item.unidad}`}</span>
        <label className="text-xs" htmlFor={`disc-${line.key}`}>
          Desc.
        </label>
        <div className="w-20">
          <Input
            id={`disc-${line.key}`}
            aria-label={`Descuento de ${line.item.nombre}`}
            inputMode="decimal"
            className="h-11 text-right"
            placeholder="$ o %"
            value={line.descuento ?? ''}
            aria-invalid={Boolean(discount.error)}
            aria-describedby={discount.error ? `disc-${line.key}-error` : undefined}
            onChange={(e) => onDiscount(e.target.value)}
            onKeyDown={(e) => e.key === 'Enter' && (e.preventDefault(), onDone())}
          />
        </div>
      </div>
      {qtyError && (
        <p id={`${qtyId}-error`} role="alert" className="mt-1 text-xs text-red-600">
          {qtyError}
        </p>
      )}
      {discount.error && (
        <p id={`disc-${line.key}-error`} role="alert" className="mt-1 text-xs text-red-600">
          {discount.error}
        </p>
      )}
    </li>
  );
}

/** The sale just recorded; `sinFactura`: it asked for an invoice and stands without one (why, what to do). */
interface SaleDone {
  sale: Sale;
  extras: TicketExtras;
  comprobanteId?: string;
  sinFactura?: string;
  /** The caja it was sold in: its printer prints it without a dialog (issue 35). */
  caja?: Caja | null;
}

function SaleDoneDialog({ done, onClose }: { done: SaleDone; onClose: () => void }) {
  const { formatting } = useBusiness();
  const business = useTicketBusiness();
  const { sale, extras } = done;
  return (
    <Dialog
      open
      onOpenChange={(o) => !o && onClose()}
      title={sale.numero ? `Venta #${sale.numero} registrada` : 'Venta guardada: pendiente de sincronizar'}
      description={`Total ${formatMoney(sale.total, formatting)}${extras.vuelto ? ` · Vuelto ${formatMoney(extras.vuelto / 100, formatting)}` : ''}`}
      className="max-w-md"
    >
      {done.sinFactura && <SinFacturaNote mensaje={done.sinFactura} />}
      <div className="max-h-[45vh] overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-3">
        <div className="mx-auto w-fit max-w-full bg-white p-2 shadow-sm">
          <Ticket sale={sale} business={business} formatting={formatting} extras={extras} format="80mm" />
        </div>
      </div>
      <PrintableTicket sale={sale} business={business} formatting={formatting} extras={extras} />
      {done.caja?.impresora && sale.numero > 0 && (
        <div className="mt-3">
          <ImpresionVenta ventaId={sale.id} caja={done.caja} onNavegador={() => printTicket('80mm')} />
        </div>
      )}
      <div className="mt-4 grid gap-2 sm:grid-cols-2">
        <Button variant="secondary" onClick={() => printTicket('80mm')}>
          <Printer className="h-4 w-4" aria-hidden /> Ticket 80 mm
        </Button>
        <Button variant="secondary" onClick={() => printTicket('a4')}>
          <Printer className="h-4 w-4" aria-hidden /> Imprimir A4
        </Button>
        {sale.numero > 0 && <CompartirButton tipo="ticket" id={sale.id} label="Compartir ticket" />}
      </div>
      {done.comprobanteId && (
        <Suspense fallback={null}>
          <PosComprobante id={done.comprobanteId} />
        </Suspense>
      )}
      <Button className="mt-3 w-full" size="lg" onClick={onClose} autoFocus>
        Nueva venta
      </Button>
    </Dialog>
  );
}
