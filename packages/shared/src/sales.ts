import { z } from 'zod';
import { MAX_QUANTITY_MILLI, optMoney, parseMilli, withAliases } from './catalog.js';
import { oneOfCi, pageQuery, queryInt, queryParam } from './customers.js';
import { optTurnoId, salePaymentsInput, type SalePayment } from './caja.js';
import { paymentMethod, type PaymentMethod } from './payment-methods.js';
import { isoDate, optText } from './validation.js';

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
  notDeleted: 'Las ventas no se eliminan: anulalas.',
  rangeTooLong: 'El rango máximo es de 366 días.',
  badRange: 'La fecha desde no puede ser posterior a la fecha hasta.',
  tooMuch: 'Debe ser menor o igual a 999999999999.99.',
  walkIn: 'Consumidor final',
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
      /** Required unless `pagos` is given (then it is the code of the largest part). */
      metodo_pago: paymentMethod().optional(),
      /** Split payment (issue 14): the medios de pago and the part each covers. */
      pagos: salePaymentsInput,
      turno_id: optTurnoId(),
      observaciones: optText(500),
      descuento: optMoney(),
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

export interface RecordSaleResult {
  id: string;
  numero: number;
  total: number;
  fecha: string;
  mensaje: string;
}

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
  items: SaleItem[];
  venta_detalle: SaleItem[];
  anulada_en: string | null;
  anulada_por: { id: string; nombre: string } | null;
  motivo_anulacion: string | null;
  /** What went back in its returns (devoluciones). */
  total_devuelto: number;
}

/* ---------------------------------------------------------------- lists and report (§6.3, §6.4) */

const dateRangeAliases = withAliases({ fecha_inicio: 'fecha_desde', fecha_fin: 'fecha_hasta' });

function checkRange(v: { fecha_desde?: string; fecha_hasta?: string }, ctx: z.RefinementCtx) {
  if (v.fecha_desde && v.fecha_hasta && v.fecha_desde > v.fecha_hasta) {
    ctx.addIssue({ code: 'custom', path: ['fecha_desde'], message: SALE_MESSAGES.badRange });
  }
}

export const saleListQuery = z.preprocess(
  dateRangeAliases,
  z
    .object({
      fecha_desde: queryParam(isoDate()),
      fecha_hasta: queryParam(isoDate()),
      estado: queryParam(oneOfCi(SALE_STATES)),
      cliente_id: queryParam(z.uuid({ error: 'Identificador no válido.' })),
      metodo_pago: queryParam(paymentMethod()),
      ...pageQuery(SALE_LIST_DEFAULT_LIMIT, SALE_LIST_MAX_LIMIT),
    })
    .superRefine(checkRange),
);
export type SaleListQuery = z.output<typeof saleListQuery>;

export interface SaleList {
  ventas: Sale[];
  total_ventas: number;
}

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

export interface ReportItem {
  id: string;
  tipo: SaleItemType;
  nombre: string;
  cantidad: number;
  total: number;
  ganancia: number;
}

export interface ReportPaymentMethod {
  metodo_pago: PaymentMethod;
  cantidad_ventas: number;
  total: number;
}

export interface ReportCustomer {
  cliente_id: string | null;
  cliente_nombre: string;
  cantidad_ventas: number;
  total: number;
}

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
  por_cliente: ReportCustomer[];
}

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

export interface TopItem {
  id: string;
  tipo: SaleItemType;
  nombre: string;
  cantidad_total: number;
  precio_venta: number;
  ingreso_total: number;
}

export interface RecentSale {
  id: string;
  numero: number;
  fecha: string;
  total: number;
}

export interface DashboardStats {
  negocio_id: string;
  periodo: DashboardPeriod;
  ventas_mes: number;
  ventas_periodo: number;
  cantidad_ventas_periodo: number;
  facturas_emitidas: number;
  productos_activos: number;
  clientes_registrados: number;
  top_productos: TopItem[];
  ventas_recientes: RecentSale[];
  today: PeriodFigures;
  week: PeriodFigures;
  month: PeriodFigures;
  top_items: TopItem[];
  total_products: number;
  total_customers: number;
  low_stock_products: number;
}

export interface MonthlySalesPoint {
  mes: string;
  etiqueta: string;
  ventas: number;
  total: number;
}

export interface MonthlySalesChart {
  datos: MonthlySalesPoint[];
  total_ventas: number;
  total_ingresos: number;
}

export interface TopProductsChart {
  datos: { nombre: string; tipo: SaleItemType; cantidad_total: number; ingreso_total: number }[];
  periodo: string;
  total_items: number;
}

export interface RecentActivity {
  actividades: {
    tipo: 'venta' | 'producto' | 'cliente';
    titulo: string;
    descripcion: string;
    fecha: string;
    icono: string;
    color: string;
  }[];
  total: number;
}

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
