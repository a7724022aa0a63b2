import { sql } from 'drizzle-orm';
import {
  check,
  date,
  foreignKey,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type PgTableExtraConfigValue,
} from 'drizzle-orm/pg-core';
import { businesses } from './businesses.js';
import { devoluciones } from './devoluciones.js';
import { sales } from './sales.js';

/** The fiscal setup of a business (issue 16, decision 0013). The key is stored encrypted. */
export const facturacionConfig = pgTable(
  'facturacion_config',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    cuit: text('cuit').notNull(),
    razonSocial: text('razon_social').notNull(),
    condicionIva: text('condicion_iva', { enum: ['responsable_inscripto', 'monotributo', 'exento'] }).notNull(),
    inicioActividades: date('inicio_actividades'),
    iibb: text('iibb'),
    domicilioFiscal: text('domicilio_fiscal'),
    puntoVenta: integer('punto_venta').notNull(),
    puntosVenta: integer('puntos_venta').array().notNull(),
    entorno: text('entorno', { enum: ['homologacion', 'produccion'] })
      .notNull()
      .default('homologacion'),
    facturar: text('facturar', { enum: ['siempre', 'elegir'] })
      .notNull()
      .default('elegir'),
    certificadoPem: text('certificado_pem'),
    certificadoVence: timestamp('certificado_vence', { withTimezone: true }),
    certificadoCuit: text('certificado_cuit'),
    claveCifrada: text('clave_cifrada'),
    /** CAEA contingency (migration 0060): the CAEA punto de venta, the outage that switches to it. */
    caeaPuntoVenta: integer('caea_punto_venta'),
    caeaTrasMinutos: integer('caea_tras_minutos').notNull().default(30),
    wsfeCaidoDesde: timestamp('wsfe_caido_desde', { withTimezone: true }),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'facturacion_config_pkey', columns: [t.businessId] })],
);

/**
 * WSAA tickets de acceso, one per certificate (its SHA-256 fingerprint), service and environment,
 * shared by every business that uses the certificate (decision 0039). Not a tenant table.
 */
export const arcaTicketsAcceso = pgTable(
  'arca_tickets_acceso',
  {
    certificado: text('certificado').notNull(),
    servicio: text('servicio').notNull(),
    entorno: text('entorno').notNull(),
    cuit: text('cuit').notNull(),
    token: text('token'),
    sign: text('sign'),
    generado: timestamp('generado', { withTimezone: true }),
    vence: timestamp('vence', { withTimezone: true }),
    esperaHasta: timestamp('espera_hasta', { withTimezone: true }),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'arca_tickets_acceso_pkey', columns: [t.certificado, t.servicio, t.entorno] })],
);

/** Facturas and notas de crédito sent to ARCA (WSFEv1). */
export const comprobantes = pgTable(
  'comprobantes',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    id: uuid('id').notNull().defaultRandom(),
    ventaId: uuid('venta_id').notNull(),
    devolucionId: uuid('devolucion_id'),
    asociadoId: uuid('asociado_id'),
    tipo: text('tipo').notNull(),
    entorno: text('entorno').notNull(),
    emisor: jsonb('emisor').notNull(),
    emisorCuit: text('emisor_cuit').notNull(),
    puntoVenta: integer('punto_venta').notNull(),
    numero: integer('numero'),
    enviadoEn: timestamp('enviado_en', { withTimezone: true }),
    fecha: date('fecha').notNull(),
    estado: text('estado', { enum: ['pendiente', 'autorizado', 'rechazado'] })
      .notNull()
      .default('pendiente'),
    cae: text('cae'),
    caeVencimiento: date('cae_vencimiento'),
    intentos: integer('intentos').notNull().default(0),
    proximoIntento: timestamp('proximo_intento', { withTimezone: true }),
    errorCodigo: text('error_codigo'),
    errorMensaje: text('error_mensaje'),
    receptorNombre: text('receptor_nombre').notNull(),
    receptorCondicionIva: text('receptor_condicion_iva').notNull(),
    receptorDocTipo: text('receptor_doc_tipo').notNull(),
    receptorDocNro: text('receptor_doc_nro'),
    receptorDomicilio: text('receptor_domicilio'),
    total: numeric('total', { precision: 14, scale: 2 }).notNull(),
    neto: numeric('neto', { precision: 14, scale: 2 }).notNull(),
    iva: numeric('iva', { precision: 14, scale: 2 }).notNull(),
    tributos: numeric('tributos', { precision: 14, scale: 2 }).notNull(),
    exento: numeric('exento', { precision: 14, scale: 2 }).notNull(),
    noGravado: numeric('no_gravado', { precision: 14, scale: 2 }).notNull(),
    alicuotas: jsonb('alicuotas').notNull(),
    lineas: jsonb('lineas').notNull(),
    /** WSFEv1 Concepto (1 productos, 2 servicios, 3 ambos); services carry their dates (migration 0059). */
    concepto: smallint('concepto').notNull().default(1),
    servicioDesde: date('servicio_desde'),
    servicioHasta: date('servicio_hasta'),
    vencimientoPago: date('vencimiento_pago'),
    /** Issued under a CAEA (migration 0060): `cae` holds the CAEA; its report's state. */
    emision: text('emision', { enum: ['cae', 'caea'] })
      .notNull()
      .default('cae'),
    caeaInforme: text('caea_informe', { enum: ['pendiente', 'informado', 'rechazado'] }),
    caeaGeneradoEn: timestamp('caea_generado_en', { withTimezone: true }),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
    actualizadoEn: timestamp('actualizado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t): PgTableExtraConfigValue[] => [
    primaryKey({ name: 'comprobantes_pkey', columns: [t.businessId, t.id] }),
    foreignKey({
      name: 'comprobantes_venta_fk',
      columns: [t.businessId, t.ventaId],
      foreignColumns: [sales.businessId, sales.id],
    }),
    foreignKey({
      name: 'comprobantes_devolucion_fk',
      columns: [t.businessId, t.devolucionId],
      foreignColumns: [devoluciones.businessId, devoluciones.id],
    }),
    foreignKey({
      name: 'comprobantes_asociado_fk',
      columns: [t.businessId, t.asociadoId],
      foreignColumns: [t.businessId, t.id],
    }),
    check(
      'comprobantes_importes',
      sql`${t.neto} + ${t.iva} + ${t.tributos} + ${t.exento} + ${t.noGravado} = ${t.total}`,
    ),
    uniqueIndex('comprobantes_factura_key')
      .on(t.businessId, t.ventaId)
      .where(sql`${t.asociadoId} IS NULL`),
    uniqueIndex('comprobantes_devolucion_key')
      .on(t.businessId, t.devolucionId)
      .where(sql`${t.devolucionId} IS NOT NULL`),
    uniqueIndex('comprobantes_anulacion_key')
      .on(t.businessId, t.asociadoId)
      .where(sql`${t.asociadoId} IS NOT NULL AND ${t.devolucionId} IS NULL`),
    uniqueIndex('comprobantes_numero_key')
      .on(t.businessId, t.emisorCuit, t.puntoVenta, t.tipo, t.numero)
      .where(sql`${t.numero} IS NOT NULL`),
    index('comprobantes_fecha_idx').on(t.businessId, t.fecha),
    index('comprobantes_pendientes_idx')
      .on(t.proximoIntento)
      .where(sql`${t.estado} = 'pendiente'`),
  ],
);

/** The CAEA of each fortnight of a business (migration 0060, decision 0047). */
export const caeas = pgTable(
  'caeas',
  {
    businessId: uuid('business_id')
      .notNull()
      .references(() => businesses.id, { onDelete: 'cascade' }),
    periodo: integer('periodo').notNull(),
    orden: smallint('orden').notNull(),
    cuit: text('cuit').notNull(),
    entorno: text('entorno').notNull(),
    caea: text('caea'),
    vigDesde: date('vig_desde').notNull(),
    vigHasta: date('vig_hasta').notNull(),
    topeInforme: date('tope_informe'),
    intentadoEn: timestamp('intentado_en', { withTimezone: true }).notNull().defaultNow(),
    errorCodigo: text('error_codigo'),
    errorMensaje: text('error_mensaje'),
    sinMovimiento: text('sin_movimiento', { enum: ['informado', 'rechazado'] }),
    sinMovimientoPuntoVenta: integer('sin_movimiento_punto_venta'),
    creadoEn: timestamp('creado_en', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ name: 'caeas_pkey', columns: [t.businessId, t.periodo, t.orden] })],
);
