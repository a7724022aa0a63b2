import {
  COMPROBANTE_TIPO_ARCA,
  COMPROBANTE_TIPO_LABELS,
  CONDICION_IVA_EMISOR_LABELS,
  CONDICION_IVA_RECEPTOR_LABELS,
  CAEA_MESSAGES,
  CAEA_TRAS_MINUTOS_DEFAULT,
  caeaErrorMessage,
  DOC_TIPO_ARCA,
  FACTURACION_MESSAGES as M,
  arcaErrorMessage,
  centsToDecimal,
  conceptoDe,
  cuitNumber,
  facturarPorDefecto,
  esNotaCredito,
  discriminadoEnPesos,
  importesDe,
  leyendasDe,
  letraDe,
  letraPara,
  necesitaDocumento,
  qrUrl,
  tipoDe,
  type Comprobante,
  type ComprobanteListQuery,
  type ComprobanteResumen,
  type ComprobanteTipo,
  type CondicionIvaReceptor,
  type DocTipo,
  type FacturacionConfig,
  type FacturacionConfigOutput,
  type IvaRate,
  type Receptor,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit } from '../../lib/audit.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { toCents } from '../products/common.js';
import { certInfo, generateKeyAndCsr, isPrivateKey, keyMatchesCert, type SecretBox } from './arca-crypto.js';
import * as cq from './comprobantes.queries.js';
import type { ComprobanteRow as Row } from './comprobantes.queries.js';
import * as fq from './facturacion.queries.js';
import type { ConfigRow, EmisorSnapshot, LineaSnapshot } from './facturador.js';
import * as vq from './ventas.queries.js';

const num = (v: string) => Number(v);

/* ---------------------------------------------------------------- config */

export function configOut(c: ConfigRow | null): FacturacionConfig {
  return {
    configurado: !!c,
    cuit: c?.cuit ?? null,
    razon_social: c?.razonSocial ?? null,
    condicion_iva: c?.condicionIva ?? null,
    inicio_actividades: c?.inicioActividades ?? null,
    iibb: c?.iibb ?? null,
    domicilio_fiscal: c?.domicilioFiscal ?? null,
    punto_venta: c?.puntoVenta ?? null,
    puntos_venta: c?.puntosVenta ?? [],
    entorno: c?.entorno ?? 'homologacion',
    facturar: c?.facturar ?? 'elegir',
    tiene_certificado: !!c?.certificadoPem,
    tiene_clave: !!c?.claveCifrada,
    certificado_vence: c?.certificadoVence?.toISOString() ?? null,
    certificado_cuit: c?.certificadoCuit ?? null,
    caea_punto_venta: c?.caeaPuntoVenta ?? null,
    caea_tras_minutos: c?.caeaTrasMinutos ?? CAEA_TRAS_MINUTOS_DEFAULT,
    actualizado_en: c?.actualizadoEn.toISOString() ?? null,
  };
}

export async function readConfig(ex: Executor, businessId: string): Promise<ConfigRow | null> {
  return fq.configRow(businessId, ex);
}

interface Ctx {
  businessId: string;
  userId: string;
}

/** The fiscal setup; the certificate and key are checked (PEM, pair, CUIT) before anything is saved. */
export async function putConfig(
  db: Db,
  box: SecretBox,
  c: Ctx,
  input: FacturacionConfigOutput,
): Promise<FacturacionConfig> {
  return db.transaction(async (tx) => {
    const before = await fq.lockConfig(c.businessId, tx);
    let cert = before?.certificadoPem ?? null;
    let info = cert ? certInfo(cert) : null;
    if (input.certificado_pem) {
      info = certInfo(input.certificado_pem);
      if (!info) throw invalid('certificado_pem', M.badCertificate);
      cert = input.certificado_pem.trim() + '\n';
    }
    let sealed = before?.claveCifrada ?? null;
    let keyPem = sealed ? box.open(sealed) : null;
    if (input.clave_privada_pem) {
      if (!isPrivateKey(input.clave_privada_pem)) throw invalid('clave_privada_pem', M.badKey);
      keyPem = input.clave_privada_pem;
      sealed = box.seal(keyPem);
    }
    if (cert && keyPem && (input.certificado_pem || input.clave_privada_pem) && !keyMatchesCert(keyPem, cert)) {
      throw invalid(input.certificado_pem ? 'certificado_pem' : 'clave_privada_pem', M.keyMismatch);
    }
    if (input.certificado_pem && info?.cuit && info.cuit !== input.cuit) {
      throw invalid('certificado_pem', M.certCuitMismatch(info.cuit));
    }
    const values = {
      cuit: input.cuit,
      razonSocial: input.razon_social,
      condicionIva: input.condicion_iva,
      inicioActividades: input.inicio_actividades ?? null,
      iibb: input.iibb ?? null,
      domicilioFiscal: input.domicilio_fiscal ?? null,
      puntoVenta: input.punto_venta,
      puntosVenta: input.puntos_venta,
      entorno: input.entorno,
      // The mode chosen stays; a new setup (or one whose condition changes) starts with its condition's.
      facturar:
        input.facturar ??
        (before && before.condicionIva === input.condicion_iva
          ? before.facturar
          : facturarPorDefecto(input.condicion_iva)),
      certificadoPem: cert,
      certificadoVence: info?.vence ?? null,
      certificadoCuit: info?.cuit ?? null,
      claveCifrada: sealed,
      // CAEA contingency (decision 0047): absent keeps what the business has.
      caeaPuntoVenta: input.caea_punto_venta === undefined ? (before?.caeaPuntoVenta ?? null) : input.caea_punto_venta,
      caeaTrasMinutos: input.caea_tras_minutos ?? before?.caeaTrasMinutos ?? CAEA_TRAS_MINUTOS_DEFAULT,
      actualizadoEn: new Date(),
    };
    const saved = await fq.saveConfig(c.businessId, values, tx);
    // The WSAA ticket belongs to the certificate, not to the business (decision 0039): the same
    // certificate uploaded again keeps it; another one has tickets of its own.
    const visible = (r: ConfigRow | undefined) => (r ? { ...configOut(r), actualizado_en: undefined } : null);
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'facturacion_config',
      entidadId: c.businessId,
      accion: before ? 'actualizar' : 'crear',
      antes: visible(before),
      despues: visible(saved),
    });
    return configOut(saved);
  });
}

/** A new key (kept encrypted) and its CSR for ARCA's portal; the old certificate no longer applies. */
export async function createCsr(
  db: Db,
  box: SecretBox,
  c: Ctx,
  input: { cuit: string; razon_social: string; alias?: string },
) {
  const { keyPem, csrPem } = generateKeyAndCsr(input.cuit, input.razon_social, input.alias);
  const sealed = box.seal(keyPem);
  await db.transaction(async (tx) => {
    await fq.saveCsrKey(c.businessId, { cuit: input.cuit, razonSocial: input.razon_social, claveCifrada: sealed }, tx);
    await audit(tx, {
      businessId: c.businessId,
      userId: c.userId,
      entidad: 'facturacion_config',
      entidadId: c.businessId,
      accion: 'generar_csr',
      despues: { cuit: input.cuit },
    });
  });
  return {
    csr_pem: csrPem,
    mensaje: 'Subí este pedido (CSR) al portal de ARCA y cargá acá el certificado que te devuelve.',
  };
}

/** 409 unless the business can issue: configured, with certificate and key. */
export function requireReady(cfg: ConfigRow | null): ConfigRow {
  if (!cfg) throw conflict('INVALID_STATE', M.notConfigured);
  if (!cfg.certificadoPem || !cfg.claveCifrada) throw conflict('INVALID_STATE', M.noCertificate);
  return cfg;
}

/* ---------------------------------------------------------------- creating comprobantes */

/** The receptor's DocTipo from the customer's document kind; "otro" goes as sin identificar (99). */
const DOC_DE_CLIENTE: Record<string, DocTipo> = {
  CUIT: 'CUIT',
  CUIL: 'CUIL',
  CDI: 'CDI',
  LE: 'LE',
  LC: 'LC',
  Pasaporte: 'Pasaporte',
  DNI: 'DNI',
};

/** ARCA's DocNro is a number: a passport or a libreta goes by its digits; none → sin identificar. */
function receptorDoc(tipo: unknown, numero: unknown): { doc_tipo: DocTipo; doc_nro: string | null } {
  const t = DOC_DE_CLIENTE[String(tipo)];
  const n = typeof numero === 'string' ? numero : '';
  if (!t || !n) return { doc_tipo: 'sin_documento', doc_nro: null };
  if (t === 'CUIT' || t === 'CUIL' || t === 'CDI') return { doc_tipo: t, doc_nro: n };
  const digits = n.replace(/\D/g, '');
  return digits && digits.length <= 11
    ? { doc_tipo: t, doc_nro: digits }
    : { doc_tipo: 'sin_documento', doc_nro: null };
}

interface SaleLines {
  total: number;
  estado: string;
  /** The sale's day in the business's time zone (YYYY-MM-DD). */
  dia: string;
  /** The punto de venta of the caja the sale was taken in, if it has one. */
  cajaPuntoVenta: number | null;
  lineas: LineaSnapshot[];
  /** What the sale sold: products, services or both (ARCA's Concepto). */
  productos: boolean;
  servicios: boolean;
  receptor: Receptor & { nombre: string };
}

async function saleForInvoice(ex: Executor, businessId: string, ventaId: string): Promise<SaleLines> {
  const s = await vq.saleForInvoiceRow(businessId, ventaId, ex);
  if (!s) throw notFound(M.saleNotFound);
  const items = await vq.saleItemsForInvoice(businessId, ventaId, ex);
  const doc = receptorDoc(s.documento_tipo, s.documento_numero);
  const nombre = s.nombre ? [s.nombre, s.apellido].filter(Boolean).join(' ') : 'Consumidor final';
  return {
    total: toCents(s.total as string),
    estado: s.estado as string,
    dia: s.dia as string,
    cajaPuntoVenta: (s.caja_punto_venta as number | null) ?? null,
    lineas: items.map((i) => ({
      nombre: i.nombre,
      cantidad: Number(i.cantidad),
      precio_unitario: Number(i.precio_unitario),
      descuento: Number(i.descuento),
      subtotal: Number(i.subtotal),
      iva: i.iva as IvaRate,
    })),
    productos: items.some((i) => i.es_servicio === 'no'),
    servicios: items.some((i) => i.es_servicio === 'si'),
    receptor: {
      condicion_iva: ((s.condicion_iva as string) ?? 'consumidor_final') as CondicionIvaReceptor,
      doc_tipo: doc.doc_tipo,
      doc_nro: doc.doc_nro,
      nombre,
      domicilio: (s.direccion as string) ?? null,
    },
  };
}

export const emisorOf = (cfg: ConfigRow): EmisorSnapshot => ({
  cuit: cfg.cuit,
  razon_social: cfg.razonSocial,
  condicion_iva: cfg.condicionIva,
  domicilio_fiscal: cfg.domicilioFiscal,
  iibb: cfg.iibb,
  inicio_actividades: cfg.inicioActividades,
});

function checkReceptor(letra: 'A' | 'B' | 'C', r: Receptor, total: number) {
  if (letra === 'A' && r.doc_tipo !== 'CUIT') throw invalid('receptor.doc_nro', M.letterANeedsCuit);
  if (r.doc_tipo === 'sin_documento' && necesitaDocumento(total)) throw invalid('receptor.doc_nro', M.receptorNeedsDoc);
}

/**
 * A new comprobante is attempted right after its request: the background pass leaves it alone for
 * a minute (it takes it then if this instance died meanwhile).
 */
const firstLease = () => new Date(Date.now() + 60_000);

const lineCents = (l: LineaSnapshot) => Math.round(l.subtotal * 100);

export interface ServicioFechas {
  desde?: string | null;
  hasta?: string | null;
  vencimiento?: string | null;
}

/**
 * The service's period (the sale's day unless given) and the payment's due date (the invoice's
 * date unless given; never before it).
 */
function servicioFechas(dia: string, hoy: string, f: ServicioFechas = {}) {
  const desde = f.desde ?? dia;
  const hasta = f.hasta ?? (desde > dia ? desde : dia);
  if (hasta < desde) throw invalid('servicio_hasta', M.servicioHastaAntes);
  const vencimiento = f.vencimiento ?? hoy;
  if (vencimiento < hoy) throw invalid('vencimiento_pago', M.vtoPagoAntes);
  return { desde, hasta, vencimiento };
}

/** The values of a sale's invoice: letter, receptor, amounts, Concepto. */
async function facturaValues(
  ex: Executor,
  cfg: ConfigRow,
  businessId: string,
  ventaId: string,
  opts: { receptor?: Receptor; puntoVenta?: number; hoy: string; servicio?: ServicioFechas },
) {
  const sale = await saleForInvoice(ex, businessId, ventaId);
  if (sale.estado === 'anulada') throw conflict('INVALID_STATE', M.saleVoided);
  // The caja's own punto de venta when it has one still in the setup; else the setup's default.
  const deCaja =
    sale.cajaPuntoVenta !== null && cfg.puntosVenta.includes(sale.cajaPuntoVenta) ? sale.cajaPuntoVenta : null;
  const pv = opts.puntoVenta ?? deCaja ?? cfg.puntoVenta;
  if (!cfg.puntosVenta.includes(pv)) throw invalid('punto_venta', M.puntoVentaNotListed);
  const receptor = opts.receptor
    ? { ...opts.receptor, nombre: opts.receptor.nombre ?? sale.receptor.nombre }
    : sale.receptor;
  const letra = letraPara(cfg.condicionIva, receptor.condicion_iva);
  checkReceptor(letra, receptor, sale.total);
  const imp = importesDe(
    sale.lineas.map((l) => ({ subtotal: lineCents(l), iva: l.iva })),
    sale.total,
    letra,
  );
  // Services go as Concepto 2 or 3 with their period and the payment's due date (the invoice's
  // date unless given).
  const concepto = conceptoDe(sale.productos, sale.servicios);
  const fechas = concepto === 1 ? null : servicioFechas(sale.dia, opts.hoy, opts.servicio);
  return {
    businessId,
    ventaId,
    concepto,
    servicioDesde: fechas?.desde ?? null,
    servicioHasta: fechas?.hasta ?? null,
    vencimientoPago: fechas?.vencimiento ?? null,
    tipo: tipoDe(letra),
    entorno: cfg.entorno,
    emisor: emisorOf(cfg),
    emisorCuit: cfg.cuit,
    puntoVenta: pv,
    fecha: opts.hoy,
    receptorNombre: receptor.nombre ?? 'Consumidor final',
    receptorCondicionIva: receptor.condicion_iva,
    receptorDocTipo: receptor.doc_tipo,
    receptorDocNro: receptor.doc_nro ?? null,
    receptorDomicilio: receptor.domicilio ?? null,
    total: centsToDecimal(imp.total),
    neto: centsToDecimal(imp.neto),
    iva: centsToDecimal(imp.iva),
    tributos: centsToDecimal(imp.tributos),
    exento: centsToDecimal(imp.exento),
    noGravado: centsToDecimal(imp.no_gravado),
    alicuotas: imp.alicuotas,
    lineas: sale.lineas,
  };
}

/**
 * The invoice of a sale, pendiente (ARCA is asked afterwards). Idempotent: the sale's existing
 * invoice comes back with `created: false`.
 */
export async function createFactura(
  ex: Executor,
  cfg: ConfigRow,
  businessId: string,
  ventaId: string,
  opts: { receptor?: Receptor; puntoVenta?: number; hoy: string; userId: string | null; servicio?: ServicioFechas },
): Promise<{ id: string; created: boolean }> {
  const existing = await cq.facturaIdOfSale(businessId, ventaId, ex);
  if (existing) return { id: existing.id, created: false };
  const values = { ...(await facturaValues(ex, cfg, businessId, ventaId, opts)), proximoIntento: firstLease() };
  const row = await cq.insertComprobante(businessId, values, ex);
  if (!row) return createFactura(ex, cfg, businessId, ventaId, opts);
  await audit(ex, {
    businessId,
    userId: opts.userId,
    entidad: 'comprobante',
    entidadId: row.id,
    accion: 'crear',
    despues: { venta_id: ventaId, tipo: values.tipo, total: values.total },
  });
  return { id: row.id, created: true };
}

/**
 * A rejected invoice goes back to pendiente with the sale's customer as it is now (the fix of a
 * rejection is usually there) and a fresh letter and amounts; a pending one is just tried again.
 */
export async function resetForRetry(
  ex: Executor,
  cfg: ConfigRow,
  businessId: string,
  id: string,
  hoy: string,
  userId: string,
) {
  const r = await cq.comprobanteRow(businessId, id, ex);
  if (!r) throw notFound(M.notFound);
  if (r.emision === 'caea') {
    // Issued under a CAEA (decision 0047): the comprobante stands as printed; its report goes again.
    if (r.caeaInforme !== 'rechazado') throw conflict('INVALID_STATE', M.notRetriable);
    await cq.updateComprobante(
      businessId,
      id,
      { caeaInforme: 'pendiente', errorCodigo: null, errorMensaje: null, actualizadoEn: new Date() },
      ex,
    );
    await audit(ex, {
      businessId,
      userId,
      entidad: 'comprobante',
      entidadId: id,
      accion: 'reintentar_informe_caea',
      antes: { caea_informe: r.caeaInforme, error_codigo: r.errorCodigo },
    });
    return 'caea' as const;
  }
  if (r.estado === 'autorizado') throw conflict('INVALID_STATE', M.notRetriable);
  // A rejected invoice goes again with its values computed anew; its sale stays (the app role
  // may not change it, decision 0032).
  const {
    businessId: _business,
    ventaId: _sale,
    ...fresh
  } = r.estado === 'rechazado' && !r.asociadoId
    ? await facturaValues(ex, cfg, businessId, r.ventaId, {
        puntoVenta: r.puntoVenta,
        hoy,
        // The dates given when it was issued stay (any still before the new date moves to it).
        servicio: {
          desde: r.servicioDesde,
          hasta: r.servicioHasta,
          vencimiento: r.vencimientoPago && r.vencimientoPago >= hoy ? r.vencimientoPago : null,
        },
      })
    : { businessId, ventaId: r.ventaId };
  await cq.updateComprobante(
    businessId,
    id,
    {
      ...fresh,
      estado: 'pendiente',
      numero: r.estado === 'rechazado' ? null : r.numero,
      errorCodigo: null,
      errorMensaje: null,
      proximoIntento: null,
      actualizadoEn: new Date(),
    },
    ex,
  );
  await audit(ex, {
    businessId,
    userId,
    entidad: 'comprobante',
    entidadId: id,
    accion: 'reintentar',
    antes: { estado: r.estado, error_codigo: r.errorCodigo },
  });
  return 'cae' as const;
}

/**
 * The nota de crédito of a void (the whole invoice) or of a return (its lines, for what went
 * back), same letter and receptor, pointing at the invoice (CbteAsoc). None when the sale has
 * no invoice, or its invoice was rejected.
 */
export async function createNotaCredito(
  ex: Executor,
  businessId: string,
  ventaId: string,
  hoy: string,
  devolucion?: { id: string; lineas: LineaSnapshot[]; total: number },
): Promise<string | null> {
  const f = await cq.facturaOfSale(businessId, ventaId, ex);
  if (!f || f.estado === 'rechazado') return null;
  // A factura issued under a CAEA is cancelled with CAE, from the setup's punto de venta (decision 0047).
  const puntoVenta =
    f.emision === 'caea' ? ((await readConfig(ex, businessId))?.puntoVenta ?? f.puntoVenta) : f.puntoVenta;
  const letra = letraDe(f.tipo as ComprobanteTipo);
  const lineas = devolucion?.lineas ?? (f.lineas as LineaSnapshot[]);
  const imp = devolucion
    ? importesDe(
        lineas.map((l) => ({ subtotal: lineCents(l), iva: l.iva })),
        devolucion.total,
        letra,
      )
    : null;
  const row = await cq.insertComprobante(
    businessId,
    {
      ...f,
      id: undefined,
      devolucionId: devolucion?.id ?? null,
      asociadoId: f.id,
      tipo: tipoDe(letra, true),
      puntoVenta,
      emision: 'cae',
      caeaInforme: null,
      caeaGeneradoEn: null,
      numero: null,
      enviadoEn: null,
      fecha: hoy,
      // A service's payment is not due before the nota de crédito's own date.
      vencimientoPago: f.vencimientoPago && f.vencimientoPago < hoy ? hoy : f.vencimientoPago,
      estado: 'pendiente',
      cae: null,
      caeVencimiento: null,
      intentos: 0,
      proximoIntento: firstLease(),
      errorCodigo: null,
      errorMensaje: null,
      lineas,
      ...(imp
        ? {
            total: centsToDecimal(imp.total),
            neto: centsToDecimal(imp.neto),
            iva: centsToDecimal(imp.iva),
            tributos: centsToDecimal(imp.tributos),
            exento: centsToDecimal(imp.exento),
            noGravado: centsToDecimal(imp.no_gravado),
            alicuotas: imp.alicuotas,
          }
        : {}),
      creadoEn: undefined,
      actualizadoEn: undefined,
    },
    ex,
  );
  return row?.id ?? null;
}

/* ---------------------------------------------------------------- reading */

export function resumenOf(r: Row): ComprobanteResumen {
  const tipo = r.tipo as ComprobanteTipo;
  return {
    id: r.id,
    tipo,
    tipo_label: COMPROBANTE_TIPO_LABELS[tipo],
    letra: letraDe(tipo),
    codigo: COMPROBANTE_TIPO_ARCA[tipo],
    punto_venta: r.puntoVenta,
    numero: r.estado === 'autorizado' ? r.numero : null,
    estado: r.estado,
    cae: r.cae,
    cae_vencimiento: r.caeVencimiento,
    total: num(r.total),
    error_codigo: r.errorCodigo,
    // A rejection (or a known ARCA code) says what to do; a pending one says why it waits.
    error_mensaje:
      r.caeaInforme === 'rechazado'
        ? `${CAEA_MESSAGES.informeRechazado} ${caeaErrorMessage(r.errorCodigo, r.errorMensaje)}`
        : r.estado === 'rechazado' || r.errorCodigo
          ? arcaErrorMessage(r.errorCodigo, r.errorMensaje)
          : r.errorMensaje,
    emision: r.emision,
    caea_informe: r.caeaInforme,
  };
}

export async function getComprobante(ex: Executor, businessId: string, id: string): Promise<Comprobante> {
  const ventaNumero = await cq.ventaNumeroOf(businessId, id, ex);
  if (ventaNumero === null) throw notFound(M.notFound);
  const r = (await cq.comprobanteRow(businessId, id, ex))!;
  const asoc = r.asociadoId ? await cq.comprobanteRow(businessId, r.asociadoId, ex) : null;
  const emisor = r.emisor as EmisorSnapshot;
  const tipo = r.tipo as ComprobanteTipo;
  const docTipo = r.receptorDocTipo as DocTipo;
  const cond = r.receptorCondicionIva as CondicionIvaReceptor;
  const alicuotas = r.alicuotas as { id: number; iva: IvaRate; base_imponible: number; importe: number }[];
  const qr =
    r.estado === 'autorizado' && r.cae && r.numero !== null
      ? qrUrl({
          fecha: r.fecha,
          cuit: cuitNumber(r.emisorCuit) ?? 0,
          ptoVta: r.puntoVenta,
          tipoCmp: COMPROBANTE_TIPO_ARCA[tipo],
          nroCmp: r.numero,
          importe: num(r.total),
          moneda: 'PES',
          ctz: 1,
          ...(docTipo === 'sin_documento'
            ? { tipoDocRec: 99, nroDocRec: 0 }
            : {
                tipoDocRec: DOC_TIPO_ARCA[docTipo],
                nroDocRec: Number((r.receptorDocNro ?? '0').replace(/\D/g, '')),
              }),
          // RG 4892: "E" for a CAE, "A" for a CAEA.
          tipoCodAut: r.emision === 'caea' ? 'A' : 'E',
          codAut: Number(r.cae),
        })
      : null;
  return {
    ...resumenOf(r),
    venta_id: r.ventaId,
    venta_numero: ventaNumero,
    devolucion_id: r.devolucionId,
    asociado: asoc
      ? { id: asoc.id, tipo: asoc.tipo as ComprobanteTipo, punto_venta: asoc.puntoVenta, numero: asoc.numero }
      : null,
    fecha: r.fecha,
    entorno: r.entorno as Comprobante['entorno'],
    emisor: { ...emisor, condicion_iva_label: CONDICION_IVA_EMISOR_LABELS[emisor.condicion_iva] },
    receptor: {
      nombre: r.receptorNombre,
      condicion_iva: cond,
      condicion_iva_label: CONDICION_IVA_RECEPTOR_LABELS[cond],
      doc_tipo: docTipo,
      doc_nro: r.receptorDocNro,
      domicilio: r.receptorDomicilio,
    },
    lineas: r.lineas as LineaSnapshot[],
    concepto: r.concepto,
    servicio_desde: r.servicioDesde,
    servicio_hasta: r.servicioHasta,
    vencimiento_pago: r.vencimientoPago,
    importes: {
      total: num(r.total),
      neto: num(r.neto),
      iva: num(r.iva),
      tributos: num(r.tributos),
      exento: num(r.exento),
      no_gravado: num(r.noGravado),
    },
    alicuotas: alicuotas.map((a) => ({ ...a, base_imponible: a.base_imponible / 100, importe: a.importe / 100 })),
    discrimina_iva: letraDe(tipo) === 'A',
    qr_url: qr,
    ...impresion(r, tipo, cond),
    intentos: r.intentos,
    proximo_intento: r.estado === 'pendiente' ? (r.proximoIntento?.toISOString() ?? null) : null,
    creado_en: r.creadoEn.toISOString(),
  };
}

/** What the printed comprobante adds: its legends and, on an A, the lines net of IVA with the bonificación. */
function impresion(r: Row, tipo: ComprobanteTipo, cond: CondicionIvaReceptor) {
  const letra = letraDe(tipo);
  const importes = { neto: Number(r.neto), exento: Number(r.exento), no_gravado: Number(r.noGravado) };
  return {
    leyendas: leyendasDe(letra, cond),
    discriminado: letra === 'A' ? discriminadoEnPesos(r.lineas as LineaSnapshot[], importes) : null,
  };
}

/** The invoice of a sale, for the sale's answers. */
export async function saleComprobante(
  ex: Executor,
  businessId: string,
  ventaId: string,
): Promise<ComprobanteResumen | null> {
  const r = await cq.facturaOfSale(businessId, ventaId, ex);
  return r ? resumenOf(r) : null;
}

export async function listComprobantes(ex: Executor, businessId: string, q: ComprobanteListQuery) {
  const { page, rows, total } = await cq.listComprobanteRows(businessId, q, ex);
  const byId = new Map(rows.map((r) => [r.id, r]));
  return {
    comprobantes: page.map(({ id, venta_numero }) => {
      const r = byId.get(id)!;
      return {
        ...resumenOf(r),
        venta_id: r.ventaId,
        venta_numero: Number(venta_numero),
        fecha: r.fecha,
        receptor_nombre: r.receptorNombre,
        receptor_doc: r.receptorDocNro,
      };
    }),
    total,
  };
}

/** Authorised comprobantes of a month, in date and number order (Libro IVA Ventas, its TXT files). */
export async function comprobantesDelMes(ex: Executor, businessId: string, mes: string) {
  return cq.autorizadosDelMes(businessId, mes, ex);
}

/** The taxed rates of the Libro IVA Ventas, each with its net and IVA columns. */
export const LIBRO_RATES = ['21', '10.5', '27', '5', '2.5', '0'] as const satisfies readonly IvaRate[];

/** A row of the Libro IVA Ventas: amounts in cents, notas de crédito negative. */
export interface LibroIvaVentaRow {
  fecha: string;
  tipo: string;
  punto_venta: number;
  numero: number;
  cae: string;
  receptor: string;
  doc: string;
  condicion: string;
  neto_por_tasa: Record<(typeof LIBRO_RATES)[number], number>;
  iva_por_tasa: Record<(typeof LIBRO_RATES)[number], number>;
  neto: number;
  iva: number;
  exento: number;
  no_gravado: number;
  tributos: number;
  total: number;
}

/** The Libro IVA Ventas of a month: one row per authorised comprobante. */
export async function libroIva(ex: Executor, businessId: string, mes: string): Promise<LibroIvaVentaRow[]> {
  const rows = await comprobantesDelMes(ex, businessId, mes);
  return rows.map((r) => {
    const sign = esNotaCredito(r.tipo as ComprobanteTipo) ? -1 : 1;
    const al = r.alicuotas as { iva: IvaRate; base_imponible: number; importe: number }[];
    const porTasa = (k: 'base_imponible' | 'importe') =>
      Object.fromEntries(
        LIBRO_RATES.map((rate) => [rate, sign * al.filter((a) => a.iva === rate).reduce((s, a) => s + a[k], 0)]),
      ) as LibroIvaVentaRow['neto_por_tasa'];
    const cents = (v: string) => sign * toCents(v);
    return {
      fecha: r.fecha,
      tipo: COMPROBANTE_TIPO_LABELS[r.tipo as ComprobanteTipo],
      punto_venta: r.puntoVenta,
      numero: r.numero ?? 0,
      cae: r.cae ?? '',
      receptor: r.receptorNombre,
      doc: r.receptorDocNro ?? '',
      condicion: CONDICION_IVA_RECEPTOR_LABELS[r.receptorCondicionIva as CondicionIvaReceptor],
      neto_por_tasa: porTasa('base_imponible'),
      iva_por_tasa: porTasa('importe'),
      neto: cents(r.neto),
      iva: cents(r.iva),
      exento: cents(r.exento),
      no_gravado: cents(r.noGravado),
      tributos: cents(r.tributos),
      total: cents(r.total),
    };
  });
}

/** The totals row of the Libro IVA Ventas: every amount column summed (notas de crédito subtract). */
export function libroTotales(rows: LibroIvaVentaRow[]): LibroIvaVentaRow & { totales: true } {
  const sum = (pick: (r: LibroIvaVentaRow) => number) => rows.reduce((s, r) => s + pick(r), 0);
  const porTasa = (k: 'neto_por_tasa' | 'iva_por_tasa') =>
    Object.fromEntries(LIBRO_RATES.map((rate) => [rate, sum((r) => r[k][rate])])) as LibroIvaVentaRow['neto_por_tasa'];
  return {
    totales: true,
    fecha: '',
    tipo: '',
    punto_venta: 0,
    numero: 0,
    cae: '',
    receptor: '',
    doc: '',
    condicion: '',
    neto_por_tasa: porTasa('neto_por_tasa'),
    iva_por_tasa: porTasa('iva_por_tasa'),
    neto: sum((r) => r.neto),
    iva: sum((r) => r.iva),
    exento: sum((r) => r.exento),
    no_gravado: sum((r) => r.no_gravado),
    tributos: sum((r) => r.tributos),
    total: sum((r) => r.total),
  };
}

/** The IVA rate of the products and services named (or of a category's), audited once. */
export async function setIvaMasivo(
  ex: Executor,
  c: Ctx,
  input: { iva: IvaRate; productos?: string[]; servicios?: string[]; categoria_id?: string },
) {
  const out = await fq.setCatalogIva(
    c.businessId,
    input.iva,
    { productos: input.productos, servicios: input.servicios, categoriaId: input.categoria_id },
    ex,
  );
  await audit(ex, {
    businessId: c.businessId,
    userId: c.userId,
    entidad: 'catalogo',
    accion: 'iva_masivo',
    despues: { iva: input.iva, ...out },
  });
  return out;
}
