import {
  centsToNumber,
  MERCADOPAGO_MESSAGES as M,
  type Conciliacion,
  type ConciliacionLinea,
  type ConciliacionQuery,
} from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { daysBetween, todayIn } from '../../lib/dates.js';
import { AppError, invalid } from '../../lib/errors.js';
import { toCents } from '../products/common.js';
import { mpFailure } from './fallas.js';
import type { MercadoPago } from './mercadopago.js';
import * as mp from './mp-client.js';
import { ordenesPorPago, periodo, ventasMpRows } from './mercadopago.queries.js';

/*
 * The conciliación (decision 0052): per day, what MP collected (its payments approved in the
 * period, net of MP's refunds) against what the sales recorded with the MP medio (net of what
 * went back through MP). A payment is matched to its sale through the order that charged it
 * (MP's payment id, else its external_reference); what is left on each side is "cobrado sin
 * venta" or "venta sin cobro", and a pair whose amounts differ says by how much. MP's fee and the
 * net it credits come from the payment, when MP reports them.
 */

const PAGE = 100;
const MAX_PAGOS = 5_000;

interface Lado {
  fecha: Date;
  ventaId: string | null;
  ventaNumero: number | null;
  ordenId: string | null;
  pagoId: string | null;
  mp: number | null;
  venta: number | null;
  comision: number | null;
  neto: number | null;
}

async function pagosMp(call: mp.MpCall, desde: Date, hasta: Date): Promise<mp.MpPayment[]> {
  const out: mp.MpPayment[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await mp.searchPayments(
      call,
      desde.toISOString(),
      new Date(hasta.getTime() - 1).toISOString(),
      offset,
      PAGE,
    );
    const results = page.results ?? [];
    out.push(...results);
    if (out.length > MAX_PAGOS) throw new AppError(422, 'VALIDATION_ERROR', M.demasiadosPagos);
    if (results.length < PAGE || out.length >= (page.paging?.total ?? 0)) return out;
  }
}

const cents = (v: number | undefined | null) => (v === undefined || v === null ? null : mp.mpCents(v));

export async function conciliacion(
  ex: Executor,
  m: MercadoPago,
  businessId: string,
  q: ConciliacionQuery,
): Promise<Conciliacion> {
  if (q.hasta < q.desde) throw invalid('hasta', M.rangoInvalido);
  if (daysBetween(q.desde, q.hasta) > 30) throw invalid('hasta', M.rangoLargo);
  const call = await m.call(businessId, ex);
  const p = await periodo(businessId, q.desde, q.hasta, ex);
  let pagos: mp.MpPayment[];
  try {
    pagos = (await pagosMp(call, p.desde, p.hasta)).filter((x) => x.status === 'approved' || x.status === 'refunded');
  } catch (e) {
    throw mpFailure(e);
  }
  const ventas = await ventasMpRows(businessId, call.medioPagoId, p.desde, p.hasta, ex);
  const ordenes = await ordenesPorPago(
    businessId,
    pagos.map((x) => String(x.id)),
    pagos.map((x) => x.external_reference ?? '').filter(Boolean),
    ex,
  );
  const pendientes = ventas.map((v) => ({
    v,
    usado: false,
    monto: toCents(v.total as string) - toCents(v.reembolsado as string),
  }));
  const lados: Lado[] = [];
  for (const pago of pagos) {
    const id = String(pago.id);
    const cobrado = mp.mpCents(pago.transaction_amount) - mp.mpCents(pago.transaction_amount_refunded ?? 0);
    const match = pendientes.find(
      (x) =>
        !x.usado &&
        x.v.orden_id &&
        (x.v.mp_pago_referencia === id || (!!pago.external_reference && x.v.referencia === pago.external_reference)),
    );
    const orden = ordenes.find(
      (o) => o.mp_pago_referencia === id || (!!pago.external_reference && o.referencia === pago.external_reference),
    );
    // A payment refunded in full with no sale standing for it: nothing to reconcile.
    if (!match && cobrado === 0) continue;
    if (match) match.usado = true;
    const fee = (pago.fee_details ?? []).reduce((s, f) => s + (cents(f.amount) ?? 0), 0);
    lados.push({
      fecha: new Date(pago.date_approved ?? pago.date_created ?? p.desde),
      ventaId: (match?.v.venta_id as string | undefined) ?? null,
      ventaNumero: (match?.v.numero as number | undefined) ?? null,
      ordenId: (match?.v.orden_id as string | undefined) ?? (orden?.id as string | undefined) ?? null,
      pagoId: id,
      mp: cobrado,
      venta: match ? match.monto : null,
      comision: pago.fee_details ? fee : null,
      neto: cents(pago.transaction_details?.net_received_amount),
    });
  }
  for (const x of pendientes.filter((y) => !y.usado && y.monto !== 0)) {
    lados.push({
      fecha: new Date(x.v.fecha as string),
      ventaId: x.v.venta_id as string,
      ventaNumero: x.v.numero as number,
      ordenId: (x.v.orden_id as string | null) ?? null,
      pagoId: null,
      mp: null,
      venta: x.monto,
      comision: null,
      neto: null,
    });
  }
  lados.sort((a, b) => a.fecha.getTime() - b.fecha.getTime());

  type Sumas = { cobrado: number; vendido: number; comision: number; neto: number; diferencia: number };
  const cero = (): Sumas => ({ cobrado: 0, vendido: 0, comision: 0, neto: 0, diferencia: 0 });
  const pesos = (x: Sumas) => ({
    cobrado: centsToNumber(x.cobrado),
    vendido: centsToNumber(x.vendido),
    comision: centsToNumber(x.comision),
    neto: centsToNumber(x.neto),
    diferencia: centsToNumber(x.diferencia),
  });
  const dias = new Map<string, { sumas: Sumas; lineas: ConciliacionLinea[] }>();
  const totales = cero();
  const cuenta = { conciliados: 0, pagado_sin_venta: 0, venta_sin_pago: 0, monto_distinto: 0 };
  for (const l of lados) {
    const diferencia = (l.mp ?? 0) - (l.venta ?? 0);
    const tipo: ConciliacionLinea['tipo'] =
      l.mp === null
        ? 'venta_sin_pago'
        : l.venta === null
          ? 'pagado_sin_venta'
          : diferencia
            ? 'monto_distinto'
            : 'conciliado';
    cuenta[tipo === 'conciliado' ? 'conciliados' : tipo]++;
    const fecha = todayIn(p.timezone, l.fecha);
    let d = dias.get(fecha);
    if (!d) dias.set(fecha, (d = { sumas: cero(), lineas: [] }));
    const sumas: Sumas = {
      cobrado: l.mp ?? 0,
      vendido: l.venta ?? 0,
      comision: l.comision ?? 0,
      neto: l.neto ?? 0,
      diferencia,
    };
    for (const k of Object.keys(sumas) as (keyof Sumas)[]) {
      d.sumas[k] += sumas[k];
      totales[k] += sumas[k];
    }
    d.lineas.push({
      tipo,
      fecha_hora: l.fecha.toISOString(),
      venta_id: l.ventaId,
      venta_numero: l.ventaNumero,
      orden_id: l.ordenId,
      mp_pago_id: l.pagoId,
      monto_mp: l.mp === null ? null : centsToNumber(l.mp),
      monto_venta: l.venta === null ? null : centsToNumber(l.venta),
      comision: l.comision === null ? null : centsToNumber(l.comision),
      neto: l.neto === null ? null : centsToNumber(l.neto),
      diferencia: centsToNumber(diferencia),
    });
  }
  return {
    desde: q.desde,
    hasta: q.hasta,
    dias: [...dias.entries()].map(([fecha, d]) => ({ fecha, ...pesos(d.sumas), lineas: d.lineas })),
    totales: { ...pesos(totales), ...cuenta },
  };
}
