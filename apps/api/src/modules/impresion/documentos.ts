import {
  ACCOUNT_MOVE_LABELS,
  CONDICION_IVA_EMISOR_LABELS,
  ENTORNO_LABELS,
  cierreFilas,
  formatCuit,
  invoiceLayout,
  paymentMethodLabel,
  type Cobro,
  type Comprobante,
  type CondicionIvaEmisor,
  type CuentaCorriente,
  type Devolucion,
  type Presupuesto,
  type Remito,
  type Sale,
  type Transferencia,
  type Turno,
} from '@mostrador/shared';
import type { Documento, Linea } from './documento.js';

/*
 * What each printed document says (issue 35), as lines: the same content the web's print views
 * show (ticket.tsx, invoice-document.tsx, turno-report.tsx, the cobro's receipt, the devolución,
 * the estado de cuenta), for the thermal printer and the shared PDF.
 */

export interface Formato {
  locale: string;
  currency: string;
  timezone: string;
}

export interface NegocioImpreso {
  nombre: string;
  cuit: string | null;
  domicilio: string | null;
  condicionIva: string | null;
}

export const negocioDe = (r: {
  nombre: string;
  cuit: string | null;
  domicilio_fiscal: string | null;
  condicion_iva: string | null;
}): NegocioImpreso => ({
  nombre: r.nombre,
  cuit: r.cuit,
  domicilio: r.domicilio_fiscal,
  condicionIva: r.condicion_iva ? (CONDICION_IVA_EMISOR_LABELS[r.condicion_iva as CondicionIvaEmisor] ?? null) : null,
});

function formatos(f: Formato) {
  const money = new Intl.NumberFormat(f.locale, { style: 'currency', currency: f.currency, minimumFractionDigits: 2 });
  const num = new Intl.NumberFormat(f.locale, { maximumFractionDigits: 3 });
  const dt = new Intl.DateTimeFormat(f.locale, {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: f.timezone,
  });
  return {
    $: (n: number) => money.format(n),
    n: (x: number) => num.format(x),
    fecha: (iso: string) => dt.format(new Date(iso)),
    dia: (d: string | null) => (d ? `${d.slice(8, 10)}/${d.slice(5, 7)}/${d.slice(0, 4)}` : ''),
  };
}

const t = (texto: string, o: Omit<Extract<Linea, { tipo: 'texto' }>, 'tipo' | 'texto'> = {}): Linea => ({
  tipo: 'texto',
  texto,
  ...o,
});
const p = (izq: string, der: string, o: { negrita?: boolean; grande?: boolean } = {}): Linea => ({
  tipo: 'par',
  izq,
  der,
  ...o,
});
const SEP: Linea = { tipo: 'separador' };
const ESPACIO: Linea = { tipo: 'espacio' };
const NO_FACTURA = t('Comprobante no válido como factura', { alinear: 'centro' });

function encabezado(n: NegocioImpreso): Linea[] {
  return [
    t(n.nombre, { alinear: 'centro', negrita: true, grande: true }),
    ...(n.cuit ? [t(`CUIT ${formatCuit(n.cuit)}`, { alinear: 'centro' })] : []),
    ...(n.domicilio ? [t(n.domicilio, { alinear: 'centro' })] : []),
    ...(n.condicionIva ? [t(`IVA ${n.condicionIva}`, { alinear: 'centro' })] : []),
    SEP,
  ];
}

/** The sale's ticket (not an invoice). */
export function ticketDoc(s: Sale, n: NegocioImpreso, f: Formato): Documento {
  const x = formatos(f);
  const l: Linea[] = [
    ...encabezado(n),
    t(`Venta #${s.numero}`, { negrita: true }),
    t(x.fecha(s.fecha)),
    t(`Cliente: ${s.cliente_nombre ?? 'Consumidor final'}`),
    ...(s.vendedor ? [t(`Atendió: ${s.vendedor.nombre}`)] : []),
    SEP,
  ];
  for (const i of s.items) {
    l.push(t(i.nombre), p(`${x.n(i.cantidad)} x ${x.$(i.precio_unitario)}`, x.$(i.subtotal)));
    if (i.descuento > 0) l.push(p('Descuento', `-${x.$(i.descuento)}`));
  }
  l.push(SEP);
  if (s.descuento > 0) l.push(p('Subtotal', x.$(s.subtotal)), p('Descuento', `-${x.$(s.descuento)}`));
  if (s.ajuste) l.push(p(s.ajuste > 0 ? 'Recargo medio de pago' : 'Descuento medio de pago', x.$(s.ajuste)));
  l.push(p('TOTAL', x.$(s.total), { negrita: true, grande: true }));
  if (s.pagos.length > 1) for (const pg of s.pagos) l.push(p(pg.nombre, x.$(pg.total)));
  else l.push(p('Medio de pago', s.pagos[0]?.nombre ?? paymentMethodLabel(s.metodo_pago)));
  const recibido = s.pagos.reduce((a, pg) => a + (pg.recibido ?? 0), 0);
  const vuelto = s.pagos.reduce((a, pg) => a + pg.vuelto, 0);
  if (recibido > 0) l.push(p('Pagó con', x.$(recibido)));
  if (vuelto > 0) l.push(p('Vuelto', x.$(vuelto)));
  if (s.estado === 'anulada') l.push(ESPACIO, t('VENTA ANULADA', { alinear: 'centro', negrita: true }));
  if (s.observaciones) l.push(t(`Obs.: ${s.observaciones}`));
  l.push(ESPACIO, t('¡Gracias por su compra!', { alinear: 'centro' }), NO_FACTURA);
  return { titulo: `Venta #${s.numero}`, lineas: l };
}

/** A factura or nota de crédito with its CAE and ARCA's QR (RG 1415, RG 4892). */
export function facturaDoc(c: Comprobante, f: Formato): Documento {
  const x = formatos(f);
  const lay = invoiceLayout(c);
  const e = c.emisor;
  const r = c.receptor;
  const l: Linea[] = [];
  if (c.entorno === 'homologacion') {
    l.push(
      t(`${ENTORNO_LABELS.homologacion.toUpperCase()} - SIN VALIDEZ FISCAL`, { alinear: 'centro', negrita: true }),
    );
  }
  l.push(
    t(e.razon_social, { alinear: 'centro', negrita: true, grande: true }),
    ...(e.domicilio_fiscal ? [t(e.domicilio_fiscal, { alinear: 'centro' })] : []),
    t(e.condicion_iva_label, { alinear: 'centro' }),
    t(`CUIT: ${formatCuit(e.cuit)}`, { alinear: 'centro' }),
    ...(e.iibb ? [t(`Ingresos Brutos: ${e.iibb}`, { alinear: 'centro' })] : []),
    ...(e.inicio_actividades
      ? [t(`Inicio de actividades: ${x.dia(e.inicio_actividades)}`, { alinear: 'centro' })]
      : []),
    SEP,
    t(`${lay.titulo} ${lay.letra}`, { alinear: 'centro', negrita: true, grande: true }),
    t(lay.codigo, { alinear: 'centro' }),
    t(`N.º ${lay.numero}`, { alinear: 'centro', negrita: true }),
    t(`Fecha: ${x.dia(c.fecha)}`, { alinear: 'centro' }),
    ...(lay.asociado ? [t(`Asociada a: ${lay.asociado}`, { alinear: 'centro' })] : []),
    SEP,
    t(`Cliente: ${r.nombre}`),
  );
  if (r.doc_tipo !== 'sin_documento' && r.doc_nro) {
    l.push(t(`${r.doc_tipo} ${r.doc_tipo === 'CUIT' ? formatCuit(r.doc_nro) : r.doc_nro}`));
  }
  l.push(t(`Condición frente al IVA: ${r.condicion_iva_label}`));
  if (r.domicilio) l.push(t(`Domicilio: ${r.domicilio}`));
  l.push(t(`Venta #${c.venta_numero}`), SEP);
  for (const li of lay.lineas) {
    l.push(
      t(li.nombre),
      p(`${x.n(li.cantidad)} x ${x.$(li.precio)}${li.alicuota ? ` (${li.alicuota})` : ''}`, x.$(li.subtotal)),
    );
    if (li.descuento > 0) l.push(p('Bonif.', `-${x.$(li.descuento)}`));
  }
  l.push(SEP);
  for (const tot of lay.totales) l.push(p(tot.label, x.$(tot.value), { negrita: tot.strong, grande: tot.strong }));
  for (const ley of lay.leyendas) l.push(ESPACIO, t(ley));
  if (lay.ivaContenido !== null) {
    l.push(
      ESPACIO,
      t('Régimen de Transparencia Fiscal al Consumidor (Ley 27.743)'),
      p('IVA contenido', x.$(lay.ivaContenido)),
    );
  }
  l.push(SEP);
  if (lay.valido) {
    if (c.qr_url) l.push({ tipo: 'qr', datos: c.qr_url });
    const cae = c.emision === 'caea' ? 'CAEA' : 'CAE';
    l.push(
      t('Comprobante autorizado', { alinear: 'centro', negrita: true }),
      t(`${cae} N.º: ${c.cae}`, { alinear: 'centro' }),
      t(`Vto. de ${cae}: ${x.dia(c.cae_vencimiento)}`, { alinear: 'centro' }),
    );
  } else {
    l.push(t('COMPROBANTE NO AUTORIZADO: SIN VALIDEZ FISCAL', { alinear: 'centro', negrita: true }));
  }
  return { titulo: `${c.tipo_label} ${lay.numero}`, lineas: l };
}

/** A cobro's receipt: who paid, how much, with what, and the account before and after. */
export function cobroDoc(k: Cobro, n: NegocioImpreso, f: Formato): Documento {
  const x = formatos(f);
  return {
    titulo: `Recibo #${k.numero}`,
    lineas: [
      ...encabezado(n),
      t(`Recibo #${k.numero}`, { negrita: true }),
      t(x.fecha(k.fecha)),
      t(`Recibimos de ${k.cliente_nombre}`),
      SEP,
      p('Monto', x.$(k.monto), { negrita: true, grande: true }),
      p('Medio de pago', k.medio_nombre),
      p('Saldo anterior', x.$(k.saldo_anterior)),
      p('Saldo actual', x.$(k.saldo)),
      ...(k.observaciones ? [t(`Obs.: ${k.observaciones}`)] : []),
      ESPACIO,
      NO_FACTURA,
    ],
  };
}

/** What went back of a sale, and how. */
export function devolucionDoc(d: Devolucion, n: NegocioImpreso, f: Formato): Documento {
  const x = formatos(f);
  const l: Linea[] = [
    ...encabezado(n),
    t(`Devolución #${d.numero}`, { negrita: true }),
    t(x.fecha(d.fecha)),
    t(`De la venta #${d.venta_numero}`),
    t(`Cliente: ${d.cliente_nombre ?? 'Consumidor final'}`),
    ...(d.usuario ? [t(`Atendió: ${d.usuario.nombre}`)] : []),
    SEP,
  ];
  for (const i of d.items) l.push(t(i.nombre), p(`${x.n(i.cantidad)}`, x.$(i.monto)));
  l.push(
    SEP,
    p('TOTAL DEVUELTO', x.$(d.monto), { negrita: true, grande: true }),
    t(d.medio_tipo === 'cuenta_corriente' ? 'Acreditado en la cuenta corriente' : `Devuelto en ${d.medio_nombre}`),
  );
  if (d.motivo) l.push(t(`Motivo: ${d.motivo}`));
  l.push(ESPACIO, NO_FACTURA);
  return { titulo: `Devolución #${d.numero}`, lineas: l };
}

/** The closing of a turno: per medio, what was expected, counted and the difference. */
export function cierreDoc(tu: Turno, n: NegocioImpreso, f: Formato): Documento {
  const x = formatos(f);
  const m = (v: number | null) => (v === null ? '' : x.$(v));
  const l: Linea[] = [
    ...encabezado(n),
    t(`CIERRE DE TURNO #${tu.numero}`, { alinear: 'centro', negrita: true }),
    t(tu.caja_nombre, { alinear: 'centro' }),
    p('Apertura', x.fecha(tu.abierto_en)),
    ...(tu.abierto_por ? [p('Abrió', tu.abierto_por.nombre)] : []),
    ...(tu.cerrado_en ? [p('Cierre', x.fecha(tu.cerrado_en))] : []),
    ...(tu.cerrado_por ? [p('Cerró', tu.cerrado_por.nombre)] : []),
    p('Ventas', String(tu.ventas_cantidad)),
    ...(tu.ventas_total !== null ? [p('Total vendido', x.$(tu.ventas_total))] : []),
    SEP,
  ];
  for (const r of cierreFilas(tu)) {
    l.push(t(r.medio, { negrita: true }));
    const rows: [string, number | null][] = [
      ['Fondo inicial', r.fondo],
      ['Ventas', r.ventas],
      ['Cobros', r.cobros],
      ['Ingresos', r.ingresos],
      ['Retiros', r.retiros],
      ['Devoluciones', r.devoluciones],
      ['Esperado', r.esperado],
      ['Contado', r.contado],
      ['Diferencia', r.diferencia],
    ];
    for (const [k, v] of rows)
      if (v !== null && (v !== 0 || k === 'Esperado' || k === 'Diferencia')) l.push(p(k, m(v)));
  }
  if (tu.observaciones) l.push(SEP, t(`Obs.: ${tu.observaciones}`));
  l.push(ESPACIO, t('Firma: ____________________'));
  return { titulo: `Cierre del turno #${tu.numero}`, lineas: l };
}

/** A customer's account: every move with the running balance, and what they owe. */
export function estadoCuentaDoc(c: CuentaCorriente, n: NegocioImpreso, f: Formato, hoy: string): Documento {
  const x = formatos(f);
  const l: Linea[] = [
    ...encabezado(n),
    t('ESTADO DE CUENTA', { alinear: 'centro', negrita: true }),
    t(c.cliente_nombre, { alinear: 'centro' }),
    t(`Al ${x.dia(hoy)}`, { alinear: 'centro' }),
    SEP,
  ];
  if (!c.movimientos.length) l.push(t('Sin movimientos.'));
  for (const mv of c.movimientos) {
    l.push(
      t(`${x.fecha(mv.fecha).slice(0, 10)} ${ACCOUNT_MOVE_LABELS[mv.tipo]} #${mv.numero}`),
      p(mv.debe ? `Debe ${x.$(mv.debe)}` : `Haber ${x.$(mv.haber)}`, x.$(mv.saldo)),
    );
  }
  l.push(SEP, p('SALDO', x.$(c.saldo), { negrita: true, grande: true }));
  if (c.limite_credito !== null) l.push(p('Límite de crédito', x.$(c.limite_credito)));
  return { titulo: `Estado de cuenta de ${c.cliente_nombre}`, lineas: l };
}

/** A presupuesto (A4): its lines at their prices, its total, validity and notes. */
export function presupuestoDoc(pr: Presupuesto, n: NegocioImpreso, f: Formato): Documento {
  const x = formatos(f);
  const l: Linea[] = [
    ...encabezado(n),
    t(`PRESUPUESTO #${pr.numero}`, { negrita: true, alinear: 'centro', grande: true }),
    t('Documento no válido como factura', { alinear: 'centro' }),
    ESPACIO,
    p('Fecha', x.dia(pr.fecha)),
    p('Válido hasta', x.dia(pr.vence)),
    t(`Cliente: ${pr.cliente_nombre}`, { negrita: true }),
    SEP,
  ];
  for (const i of pr.items) {
    l.push(t(i.nombre), p(`${x.n(i.cantidad)} x ${x.$(i.precio_unitario)}`, x.$(i.subtotal + i.descuento)));
    if (i.descuento > 0) l.push(p('Descuento', `-${x.$(i.descuento)}`));
  }
  l.push(SEP);
  if (pr.descuento > 0) l.push(p('Subtotal', x.$(pr.subtotal)), p('Descuento', `-${x.$(pr.descuento)}`));
  l.push(p('TOTAL', x.$(pr.total), { negrita: true, grande: true }));
  if (pr.notas) l.push(ESPACIO, t(`Notas: ${pr.notas}`));
  l.push(ESPACIO, t(`Precios válidos hasta el ${x.dia(pr.vence)}.`));
  if (pr.estado === 'anulado') l.push(ESPACIO, t('PRESUPUESTO ANULADO', { alinear: 'centro', negrita: true }));
  return { titulo: `Presupuesto #${pr.numero}`, lineas: l, a4: true };
}

/**
 * A transferencia's remito interno (A4, decision 0059): from which depósito to which, what was
 * sent and, once received, what arrived and the difference; the signatures of who sends and who
 * receives.
 */
export function transferenciaDoc(tr: Transferencia, n: NegocioImpreso, f: Formato): Documento {
  const x = formatos(f);
  const recibida = tr.estado === 'recibida';
  const l: Linea[] = [
    ...encabezado(n),
    t(`REMITO INTERNO #${tr.numero}`, { negrita: true, alinear: 'centro', grande: true }),
    t('Transferencia entre depósitos - documento no válido como factura', { alinear: 'centro' }),
    ESPACIO,
    p('Fecha', x.fecha(tr.creado_en)),
    p('Origen', tr.origen_nombre),
    p('Destino', tr.destino_nombre),
    p('Estado', recibida ? `Recibida el ${x.fecha(tr.recibido_en!)}` : 'En tránsito'),
    SEP,
    p('Descripción', recibida ? 'Enviada / recibida' : 'Cantidad', { negrita: true }),
    SEP,
  ];
  for (const i of tr.items) {
    l.push(p(i.nombre, recibida ? `${x.n(i.cantidad)} / ${x.n(i.cantidad_recibida ?? 0)}` : x.n(i.cantidad)));
    if (recibida && i.diferencia) l.push(p('  Diferencia', x.n(i.diferencia)));
  }
  l.push(SEP);
  if (tr.observaciones) l.push(t(`Observaciones: ${tr.observaciones}`), ESPACIO);
  l.push(
    ESPACIO,
    t('Entregó: ______________________________'),
    ESPACIO,
    t('Recibió: ______________________________'),
    ESPACIO,
    t('Fecha: ____ / ____ / ________'),
  );
  return { titulo: `Remito interno #${tr.numero}`, lineas: l, a4: true };
}

/** A remito (A4): what was delivered, without prices, and the receiver's signature lines. */
export function remitoDoc(r: Remito, n: NegocioImpreso, f: Formato): Documento {
  const x = formatos(f);
  const l: Linea[] = [
    ...encabezado(n),
    t(`REMITO #${r.numero}`, { negrita: true, alinear: 'centro', grande: true }),
    t('Documento no válido como factura', { alinear: 'centro' }),
    ESPACIO,
    p('Fecha', x.fecha(r.fecha)),
    t(`Cliente: ${r.cliente_nombre}`, { negrita: true }),
    ...(r.presupuesto_numero ? [t(`Según presupuesto #${r.presupuesto_numero}`)] : []),
    SEP,
    p('Descripción', 'Cantidad', { negrita: true }),
    SEP,
  ];
  for (const i of r.items) l.push(p(i.nombre, x.n(i.cantidad)));
  l.push(SEP);
  if (r.notas) l.push(t(`Notas: ${r.notas}`), ESPACIO);
  if (r.estado === 'anulado') l.push(t('REMITO ANULADO', { alinear: 'centro', negrita: true }), ESPACIO);
  l.push(
    ESPACIO,
    t('Recibí conforme la mercadería detallada.', { negrita: true }),
    ESPACIO,
    ESPACIO,
    t('Firma: ________________________________'),
    ESPACIO,
    t('Aclaración: ___________________________'),
    ESPACIO,
    t('DNI: __________________________________'),
    ESPACIO,
    t('Fecha: ____ / ____ / ________'),
  );
  return { titulo: `Remito #${r.numero}`, lineas: l, a4: true };
}
