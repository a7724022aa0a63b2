import { z } from 'zod';
import { saleOfflineInput } from './pos-catalogo.js';
import { MAX_QUANTITY_MILLI, optMoney, parseMilli, withAliases } from './catalog.js';
import { oneOfCi, pageQuery, queryInt, queryParam } from './customers.js';
import { MEDIO_TIPOS, optTurnoId, salePaymentSchema, salePaymentsInput, type SalePayment } from './caja.js';
import { PAYMENT_METHODS, paymentMethod, paymentMethodLabel, type PaymentMethod } from './payment-methods.js';
import { comprobanteResumenSchema, receptorInput, type ComprobanteResumen } from './facturacion.js';
import { isoDate, optText } from './validation.js';
import { autorizacionInput } from './autorizacion.js';

/*
 * Sales (API-CONTRACT §6, §14.3): the point of sale, the sales lists, the report and the
 * dashboard figures. Money travels as integer cents and quantities as integer thousandths
 * inside the schemas; responses carry plain numbers.
 */

/* ---------------------------------------------------------------- constants */

export const SALE_ITEM_TYPES = ['producto', 'servicio'] as const;
export type SaleItemType = (typeof SALE_ITEM_TYPES)[number];
export const SALE_STATES = ['completada', 'anulada'] as const;
export type SaleState = (typeof SALE_STATES)[number];
export const SALE_STATE_LABELS: Record<SaleState, string> = { completada: 'Completada', anulada: 'Anulada' };

export const SALE_MAX_ITEMS = 500;
export const SALE_LIST_DEFAULT_LIMIT = 100;
export const SALE_LIST_MAX_LIMIT = 500;
export const SALE_REPORT_MAX_DAYS = 366;
export const DASHBOARD_TOP = 5;
export const DASHBOARD_PERIODS = ['dia', 'semana', 'mes'] as const;
export type DashboardPeriod = (typeof DASHBOARD_PERIODS)[number];
/** Idempotency keys are kept this long (API-CONTRACT §6.2). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

export const SALE_MESSAGES = {
  notFound: 'Venta no encontrada.',
  created: 'Venta registrada exitosamente',
  noItems: 'La venta debe tener al menos un ítem.',
  productNotInBusiness: 'Producto no encontrado en este negocio.',
  serviceNotInBusiness: 'Servicio no encontrado en este negocio.',
  customerNotInBusiness: 'Cliente no encontrado en este negocio.',
  productInactive: (nombre: string) => `El producto «${nombre}» está inactivo.`,
  serviceInactive: (nombre: string) => `El servicio «${nombre}» está inactivo.`,
  discountTooHigh: 'El descuento no puede superar el subtotal.',
  lineDiscountTooHigh: 'El descuento de la línea no puede superar su importe.',
  priceChangeForbidden: (nombre: string) =>
    `No tenés permiso para cambiar el precio de «${nombre}»: vendelo a su precio o pedile a un administrador que te habilite «Cambiar precios».`,
  discountOverMax: (max: number) =>
    `El descuento supera el máximo que tenés permitido (${String(max).replace('.', ',')} %): pedile a un administrador que lo autorice.`,
  insufficientStock: (producto: string, disponible: string) =>
    `Stock insuficiente para ${producto}. Disponible: ${disponible}.`,
  idempotencyMismatch: 'Esta clave de idempotencia ya se usó con otra venta.',
  badIdempotencyKey: 'La clave de idempotencia debe tener entre 1 y 255 caracteres imprimibles.',
  businessMismatch: 'El negocio indicado no coincide con el de la ruta.',
  alreadyVoided: 'La venta ya está anulada.',
  /** A voided sale's remitos go back to pendiente (decision 0056): the event's reason. */
  remitosPendientes: (numero: number | null, motivo: string | null) =>
    `Venta ${numero === null ? '' : `#${numero} `}anulada${motivo ? `: ${motivo}` : ''}`,
  notDeleted: 'Las ventas no se eliminan: anulalas.',
  rangeTooLong: 'El rango máximo es de 366 días.',
  badRange: 'La fecha desde no puede ser posterior a la fecha hasta.',
  tooMuch: 'Debe ser menor o igual a 999999999999.99.',
  walkIn: 'Consumidor final',
} as const;

/** Why a sale was refused, as the owner reads it in the change log (accion `intento_rechazado`). */
export const SALE_ATTEMPTS = {
  priceChange: 'Cambio de precio sin permiso',
  discountOverMax: 'Descuento mayor al máximo permitido',
  creditLimit: 'Venta sobre el límite de crédito',
} as const;

/* ---------------------------------------------------------------- record-sale (§6.2) */

export const positiveQuantity = () =>
  z.unknown().transform((v, ctx) => {
    if (v === undefined || v === null || v === '') {
      ctx.addIssue({ code: 'custom', message: 'Este campo es obligatorio.' });
      return z.NEVER;
    }
    if ((typeof v === 'number' || typeof v === 'string') && /^[-+]?\d+\.\d{4,}$/.test(String(v).trim())) {
      ctx.addIssue({ code: 'custom', message: 'Admite como máximo 3 decimales.' });
      return z.NEVER;
    }
    const milli = parseMilli(v);
    if (milli === null) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser un número.' });
      return z.NEVER;
    }
    if (milli <= 0) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser mayor a 0.' });
      return z.NEVER;
    }
    if (milli > MAX_QUANTITY_MILLI) {
      ctx.addIssue({ code: 'custom', message: 'Debe ser menor o igual a 99999999999.999.' });
      return z.NEVER;
    }
    return milli;
  });

export const saleItemInput = z.object({
  id: z.uuid({ error: 'Identificador no válido.' }),
  tipo: oneOfCi(SALE_ITEM_TYPES).optional().default('producto'),
  cantidad: positiveQuantity(),
  /** Cents; absent or null = the catalogue price. */
  precio: optMoney(),
  /** Cents off this line (issue 15); at most cantidad × precio. */
  descuento: optMoney(),
});

const blankToNull = (v: unknown) => (typeof v === 'string' && v.trim() === '' ? null : v);

export const recordSaleInput = z.preprocess(
  withAliases({ business_id: 'negocio_id' }),
  z
    .object({
      negocio_id: z.preprocess(blankToNull, z.string().nullable().optional()),
      cliente_id: z.preprocess(blankToNull, z.uuid({ error: 'Identificador no válido.' }).nullable().optional()),
      /**
       * The price list (issue 17): absent, the customer's default (or Minorista); null, Minorista.
       * The server prices the lines from it; only a member who may change prices may leave the default.
       */
      lista_precios_id: z.preprocess(blankToNull, z.uuid({ error: 'Identificador no válido.' }).nullable().optional()),
      /** Required unless `pagos` is given (then it is the code of the largest part). */
      metodo_pago: paymentMethod().optional(),
      /** Split payment (issue 14): the medios de pago and the part each covers. */
      pagos: salePaymentsInput,
      turno_id: optTurnoId(),
      /**
       * Another member's PIN (issue 33, decision 0049): what the seller alone may not do (a discount
       * over their maximum, a changed price, a sale over the credit limit) goes through when that
       * member may, and the sale records who authorized it.
       */
      autorizacion: autorizacionInput.optional(),
      observaciones: optText(500),
      descuento: optMoney(),
      /** Issue an invoice for this sale (issue 16); with `facturar: siempre` in the config every sale is. */
      facturar: z.boolean({ error: 'Debe ser verdadero o falso.' }).optional(),
      /** Who the invoice is for, when not the sale's customer as stored. */
      receptor: receptorInput.optional(),
      /** Taken without a connection (issue 18): kept with the device's time, accepted even if stock ran short since. */
      offline: saleOfflineInput,
      items: z.preprocess(
        (v) => (v === undefined || v === null ? [] : v),
        z
          .array(saleItemInput, { error: 'Debe ser una lista.' })
          .min(1, SALE_MESSAGES.noItems)
          .max(SALE_MAX_ITEMS, `Admite como máximo ${SALE_MAX_ITEMS} ítems.`),
      ),
    })
    .superRefine((v, ctx) => {
      if (!v.pagos && v.metodo_pago === undefined) {
        ctx.addIssue({ code: 'custom', path: ['metodo_pago'], message: 'Este campo es obligatorio.' });
      }
    }),
);
export type RecordSaleInput = z.input<typeof recordSaleInput>;
export type RecordSaleOutput = z.output<typeof recordSaleInput>;

export type RecordSaleResult = z.infer<typeof recordSaleResultSchema>;

export const recordSaleResultSchema = z.object({
  id: z.string(),
  numero: z.number(),
  total: z.number(),
  fecha: z.string(),
  mensaje: z.string(),
  /** The invoice created with the sale (pendiente: ARCA is asked after the answer). */
  comprobante: comprobanteResumenSchema.nullable().optional(),
  /**
   * The sale asked for an invoice (`facturar`) and stands without one: why, and what to do, in
   * Spanish for the cashier (issue 32). Absent when it got its invoice or asked for none.
   */
  sin_factura: z.string().optional(),
});

/** The body is optional: a void without a reason sends none. */
export const voidSaleInput = z.preprocess((v) => v ?? {}, z.object({ motivo: optText(200) }));
export type VoidSaleInput = z.output<typeof voidSaleInput>;

/* ---------------------------------------------------------------- sale object (§6.1) */

export interface SaleItem {
  id: string;
  tipo: SaleItemType;
  producto_id: string | null;
  servicio_id: string | null;
  nombre: string;
  cantidad: number;
  precio_unitario: number;
  /** The line's own discount; subtotal = cantidad × precio_unitario − descuento. */
  descuento: number;
  subtotal: number;
  costo_unitario: number;
  /** Returned so far (devoluciones), and what went back for it. */
  cantidad_devuelta: number;
  monto_devuelto: number;
}

export const saleItemSchema = z.object({
  id: z.string(),
  tipo: z.enum(SALE_ITEM_TYPES),
  producto_id: z.string().nullable(),
  servicio_id: z.string().nullable(),
  nombre: z.string(),
  cantidad: z.number(),
  precio_unitario: z.number(),
  /** The line's own discount; subtotal = cantidad × precio_unitario − descuento. */
  descuento: z.number(),
  subtotal: z.number(),
  costo_unitario: z.number().optional(),
  /** Returned so far (devoluciones), and what went back for it. */
  cantidad_devuelta: z.number(),
  monto_devuelto: z.number(),
});

export interface Sale {
  id: string;
  numero: number;
  fecha: string;
  fecha_venta: string;
  estado: SaleState;
  cliente_id: string | null;
  cliente_nombre: string | null;
  metodo_pago: PaymentMethod;
  medio_pago: PaymentMethod;
  subtotal: number;
  descuento: number;
  /** Surcharges (+) and discounts (−) of the medios de pago. */
  ajuste: number;
  total: number;
  pagos: SalePayment[];
  turno_id: string | null;
  costo_estimado: number;
  observaciones: string | null;
  vendedor: { id: string; nombre: string } | null;
  /** Who authorized with their PIN what the seller alone could not do (issue 33); null: nobody had to. */
  autorizado_por?: { id: string; nombre: string } | null;
  items: SaleItem[];
  venta_detalle: SaleItem[];
  anulada_en: string | null;
  anulada_por: { id: string; nombre: string } | null;
  motivo_anulacion: string | null;
  /** What went back in its returns (devoluciones). */
  total_devuelto: number;
  /** Its invoice (issue 16), when it has one; absent on lists. */
  comprobante?: ComprobanteResumen | null;
}

export const saleSchema = z.object({
  id: z.string(),
  numero: z.number(),
  fecha: z.string(),
  fecha_venta: z.string(),
  estado: z.enum(SALE_STATES),
  cliente_id: z.string().nullable(),
  cliente_nombre: z.string().nullable(),
  metodo_pago: z.enum(PAYMENT_METHODS),
  /** Added by the server beside every metodo_pago (lib/payment-labels.ts). */
  metodo_pago_label: z.string().nullable().optional(),
  medio_pago: z.enum(PAYMENT_METHODS),
  subtotal: z.number(),
  descuento: z.number(),
  ajuste: z.number(),
  total: z.number(),
  pagos: z.array(salePaymentSchema),
  turno_id: z.string().nullable(),
  costo_estimado: z.number().optional(),
  observaciones: z.string().nullable(),
  vendedor: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  autorizado_por: z.object({ id: z.string(), nombre: z.string() }).nullable().optional(),
  items: z.array(saleItemSchema),
  venta_detalle: z.array(saleItemSchema),
  anulada_en: z.string().nullable(),
  anulada_por: z.object({ id: z.string(), nombre: z.string() }).nullable(),
  motivo_anulacion: z.string().nullable(),
  /** What went back in its returns (devoluciones). */
  total_devuelto: z.number(),
  /** Its invoice (issue 16), when it has one; absent on lists. */
  comprobante: comprobanteResumenSchema.nullable().optional(),
  /**
   * The sale asked for an invoice (`facturar`) and stands without one: why, and what to do, in
   * Spanish for the cashier (issue 32). Absent when it got its invoice or asked for none.
   */
  sin_factura: z.string().optional(),
});

/**
 * The medios a sale was paid with as the business named them ("Efectivo + Cuenta corriente"),
 * for lists and spreadsheets (issue 33); a sale without payments by its contract code's label.
 */
export function saleMedioNombre(s: { metodo_pago: string; pagos?: { nombre: string }[] | null }): string {
  const names = [...new Set((s.pagos ?? []).map((p) => p.nombre.trim()).filter(Boolean))];
  return names.length ? names.join(' + ') : paymentMethodLabel(s.metodo_pago);
}

/* ---------------------------------------------------------------- lists and report (§6.3, §6.4) */

const dateRangeAliases = withAliases({ fecha_inicio: 'fecha_desde', fecha_fin: 'fecha_hasta' });

function checkRange(v: { fecha_desde?: string; fecha_hasta?: string }, ctx: z.RefinementCtx) {
  if (v.fecha_desde && v.fecha_hasta && v.fecha_desde > v.fecha_hasta) {
    ctx.addIssue({ code: 'custom', path: ['fecha_desde'], message: SALE_MESSAGES.badRange });
  }
}

/** Columns the sales list sorts by (`orden`, with `direccion` asc|desc); newest first otherwise. */
export const SALE_SORTS = ['fecha', 'numero', 'total'] as const;

export const saleListQuery = z.preprocess(
  dateRangeAliases,
  z
    .object({
      fecha_desde: queryParam(isoDate()),
      fecha_hasta: queryParam(isoDate()),
      estado: queryParam(oneOfCi(SALE_STATES)),
      cliente_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
      metodo_pago: queryParam(paymentMethod()),
      orden: queryParam(oneOfCi(SALE_SORTS)),
      direccion: queryParam(oneOfCi(['asc', 'desc'] as const)),
      ...pageQuery(SALE_LIST_DEFAULT_LIMIT, SALE_LIST_MAX_LIMIT),
    })
    .superRefine(checkRange),
);
export type SaleListQuery = z.output<typeof saleListQuery>;

export interface SaleList {
  ventas: Sale[];
  total_ventas: number;
}

export const saleListSchema = z.object({
  ventas: z.array(saleSchema),
  total_ventas: z.number(),
});

export const REPORT_FORMATS = ['json', 'xlsx'] as const;

export const salesReportQuery = z.preprocess(
  dateRangeAliases,
  z
    .object({
      fecha_desde: queryParam(isoDate()),
      fecha_hasta: queryParam(isoDate()),
      formato: queryParam(oneOfCi(REPORT_FORMATS)).transform((v) => v ?? 'json'),
    })
    .superRefine(checkRange),
);
export type SalesReportQuery = z.output<typeof salesReportQuery>;

export interface ReportDay {
  fecha: string;
  cantidad_ventas: number;
  total: number;
  ganancia: number;
}

export const reportDaySchema = z.object({
  fecha: z.string(),
  cantidad_ventas: z.number(),
  total: z.number(),
  ganancia: z.number().optional(),
});

export interface ReportItem {
  id: string;
  tipo: SaleItemType;
  nombre: string;
  cantidad: number;
  total: number;
  ganancia: number;
}

export const reportItemSchema = z.object({
  id: z.string(),
  tipo: z.enum(SALE_ITEM_TYPES),
  nombre: z.string(),
  cantidad: z.number(),
  total: z.number(),
  ganancia: z.number().optional(),
});

export type ReportPaymentMethod = z.infer<typeof reportPaymentMethodSchema>;

export const reportPaymentMethodSchema = z.object({
  metodo_pago: z.enum(PAYMENT_METHODS),
  /** Added by the server beside every metodo_pago (lib/payment-labels.ts). */
  metodo_pago_label: z.string().nullable().optional(),
  cantidad_ventas: z.number(),
  total: z.number(),
});

export type ReportMedio = z.infer<typeof reportMedioSchema>;

/**
 * The report per medio de pago as the business configured it (issue 33): "Cuenta corriente" and
 * "Crédito 3 cuotas" apart from the "Otro" and "Tarjeta de Crédito" their `metodo_pago` code shares.
 * `medio_pago_id` null: payments recorded without a medio (named by their code).
 */
export const reportMedioSchema = z.object({
  medio_pago_id: z.string().nullable(),
  nombre: z.string(),
  tipo: z.enum(MEDIO_TIPOS).nullable(),
  metodo_pago: z.enum(PAYMENT_METHODS),
  cantidad_ventas: z.number(),
  total: z.number(),
});

export type ReportCustomer = z.infer<typeof reportCustomerSchema>;

export const reportCustomerSchema = z.object({
  cliente_id: z.string().nullable(),
  cliente_nombre: z.string(),
  cantidad_ventas: z.number(),
  total: z.number(),
});

export interface SalesReport {
  fecha_desde: string;
  fecha_hasta: string;
  total_ventas: number;
  total_ingresos: number;
  ticket_promedio: number;
  descuentos: number;
  costo_estimado: number;
  ganancias_netas: number;
  ventas_anuladas: number;
  /** What went back in the range's returns (already out of every other figure). */
  devoluciones: number;
  por_dia: ReportDay[];
  productos_mas_vendidos: ReportItem[];
  por_metodo_pago: ReportPaymentMethod[];
  /** By configured medio, by total descending (added beside `por_metodo_pago`, issue 33). */
  por_medio_pago: ReportMedio[];
  por_cliente: ReportCustomer[];
}

export const salesReportSchema = z.object({
  fecha_desde: z.string(),
  fecha_hasta: z.string(),
  total_ventas: z.number(),
  total_ingresos: z.number(),
  ticket_promedio: z.number(),
  descuentos: z.number(),
  costo_estimado: z.number().optional(),
  ganancias_netas: z.number().optional(),
  ventas_anuladas: z.number(),
  por_dia: z.array(reportDaySchema),
  productos_mas_vendidos: z.array(reportItemSchema),
  por_metodo_pago: z.array(reportPaymentMethodSchema),
  por_medio_pago: z.array(reportMedioSchema),
  por_cliente: z.array(reportCustomerSchema),
});

/* ---------------------------------------------------------------- dashboard (§6.5) */

export const dashboardQuery = z.object({
  periodo: queryParam(oneOfCi(DASHBOARD_PERIODS)).transform((v) => v ?? 'mes'),
});

export const recentActivityQuery = z.object({
  limit: queryParam(queryInt().pipe(z.number().min(1))).transform((n) => Math.min(n ?? 10, 50)),
});

export const topProductsChartQuery = z.object({
  dias: queryParam(queryInt().pipe(z.number().min(1).max(365))).transform((n) => n ?? 30),
});

export interface PeriodFigures {
  total_sales: number;
  estimated_profit: number;
  new_customers: number;
}

export const periodFiguresSchema = z.object({
  total_sales: z.number(),
  estimated_profit: z.number().optional(),
  new_customers: z.number(),
});

export type TopItem = z.infer<typeof topItemSchema>;

export const topItemSchema = z.object({
  id: z.string(),
  tipo: z.enum(SALE_ITEM_TYPES),
  nombre: z.string(),
  cantidad_total: z.number(),
  precio_venta: z.number(),
  ingreso_total: z.number(),
});

export type RecentSale = z.infer<typeof recentSaleSchema>;

export const recentSaleSchema = z.object({
  id: z.string(),
  numero: z.number(),
  fecha: z.string(),
  total: z.number(),
});

export type DashboardStats = z.infer<typeof dashboardStatsSchema>;

export const dashboardStatsSchema = z.object({
  negocio_id: z.string(),
  periodo: z.enum(DASHBOARD_PERIODS),
  ventas_mes: z.number(),
  ventas_periodo: z.number(),
  cantidad_ventas_periodo: z.number(),
  facturas_emitidas: z.number(),
  productos_activos: z.number(),
  clientes_registrados: z.number(),
  top_productos: z.array(topItemSchema),
  ventas_recientes: z.array(recentSaleSchema),
  today: periodFiguresSchema,
  week: periodFiguresSchema,
  month: periodFiguresSchema,
  top_items: z.array(topItemSchema),
  total_products: z.number(),
  total_customers: z.number(),
  low_stock_products: z.number(),
});

export type MonthlySalesPoint = z.infer<typeof monthlySalesPointSchema>;

export const monthlySalesPointSchema = z.object({
  mes: z.string(),
  etiqueta: z.string(),
  ventas: z.number(),
  total: z.number(),
});

export type MonthlySalesChart = z.infer<typeof monthlySalesChartSchema>;

export const monthlySalesChartSchema = z.object({
  datos: z.array(monthlySalesPointSchema),
  total_ventas: z.number(),
  total_ingresos: z.number(),
});

export type TopProductsChart = z.infer<typeof topProductsChartSchema>;

export const topProductsChartSchema = z.object({
  datos: z.array(
    z.object({
      nombre: z.string(),
      tipo: z.enum(SALE_ITEM_TYPES),
      cantidad_total: z.number(),
      ingreso_total: z.number(),
    }),
  ),
  periodo: z.string(),
  total_items: z.number(),
});

export type RecentActivity = z.infer<typeof recentActivitySchema>;

export const recentActivitySchema = z.object({
  actividades: z.array(
    z.object({
      tipo: z.enum(['venta', 'producto', 'cliente']),
      titulo: z.string(),
      descripcion: z.string(),
      fecha: z.string(),
      icono: z.string(),
      color: z.string(),
    }),
  ),
  total: z.number(),
});

/* ---------------------------------------------------------------- arithmetic shared by the server and the POS */

/** round half-up(cantidad × precio) in cents, from thousandths and cents (exact, BigInt). */
export function saleLineCents(cantidadMilli: number, precioCents: number): number {
  const p = BigInt(Math.round(cantidadMilli)) * BigInt(Math.round(precioCents));
  const q = p / 1000n;
  const r = p % 1000n;
  return Number(r * 2n >= 1000n ? q + 1n : q);
}

/** The calendar day of the week (Monday = 0) of a `YYYY-MM-DD` date. */
export function weekdayMondayFirst(date: string): number {
  return (new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7;
}

/** GET /ventas/dashboard-stats (the first dashboard's figures). */
export const dashboardStatsV1Schema = z.object({
  totalProducts: z.number(),
  totalCustomers: z.number(),
  totalSales: z.number(),
  monthlyRevenue: z.number(),
  lowStockProducts: z.number(),
  pendingOrders: z.number(),
});

const check = (extra: z.ZodRawShape = {}) => z.object({ status: z.enum(['ok', 'error']), ...extra });

/** GET /ventas/health-check: 200 when every check passes, 503 otherwise. */
export const businessHealthSchema = z.object({
  status: z.enum(['ok', 'error']),
  database: z.enum(['ok', 'error']),
  negocio_id: z.string(),
  response_time_ms: z.number(),
  checks: z.object({
    database: check({ latency_ms: z.number().nullable() }),
    membresia: check(),
    productos: check({ total: z.number().nullable() }),
    ventas: check({ total: z.number().nullable() }),
  }),
});
