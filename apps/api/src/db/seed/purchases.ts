import { and, eq } from 'drizzle-orm';
import { purchaseInput, supplierInput, type PaymentMethod, type PurchaseInput } from '@mostrador/shared';
import { addDays } from '../../lib/dates.js';
import { markPaid } from '../../modules/finance/accounts.service.js';
import { createPurchase, updatePurchase } from '../../modules/purchases/purchases.service.js';
import { createSupplier } from '../../modules/suppliers/suppliers.service.js';
import type { Db } from '../client.js';
import { products } from '../schema/index.js';

const SUPPLIERS: ({ key: string; nombre: string } & Record<string, string>)[] = [
  {
    key: 'sur',
    nombre: 'Distribuidora Mayorista Sur SRL',
    cuit: '30-70112233-6',
    email: 'ventas@mayoristasur.com.ar',
    telefono: '011 4301-5500',
    contacto: 'Hernán Ruiz',
    direccion: 'Av. Pedro de Mendoza 2100',
    ciudad: 'CABA',
    provincia: 'Buenos Aires',
    pais: 'Argentina',
    condiciones_pago: '30 días',
    notas: 'Almacén seco. Pedido mínimo $150.000; entrega en 48 h.',
  },
  {
    key: 'femsa',
    nombre: 'Coca-Cola FEMSA Argentina',
    cuit: '30-50284791-7',
    email: 'preventa.palermo@kof.com.ar',
    telefono: '0800-555-2653',
    contacto: 'Diego (preventista)',
    ciudad: 'CABA',
    provincia: 'Buenos Aires',
    pais: 'Argentina',
    condiciones_pago: '15 días',
    notas: 'El preventista pasa los martes.',
  },
  {
    key: 'serenisima',
    nombre: 'La Serenísima - Mastellone Hnos.',
    cuit: '30-71456789-2',
    telefono: '0800-888-5100',
    contacto: 'Reparto zona norte',
    ciudad: 'General Rodríguez',
    provincia: 'Buenos Aires',
    pais: 'Argentina',
    condiciones_pago: '14 días',
  },
  {
    key: 'bodega',
    nombre: 'Bebidas del Centro',
    cuit: '30-68123450-7',
    email: 'pedidos@bebidasdelcentro.com.ar',
    telefono: '+54 9 11 5870-2211',
    contacto: 'Marcela Ibáñez',
    direccion: 'Juan B. Justo 4500',
    ciudad: 'CABA',
    provincia: 'Buenos Aires',
    pais: 'Argentina',
    condiciones_pago: '21 días',
  },
  {
    key: 'limpieza',
    nombre: 'Limpieza Total Distribuciones',
    cuit: '30-70555666-7',
    telefono: '011 4553-8080',
    contacto: 'Rubén',
    ciudad: 'Vicente López',
    provincia: 'Buenos Aires',
    pais: 'Argentina',
    condiciones_pago: 'Contado',
  },
  {
    key: 'kiosco',
    nombre: 'Golosinas Express',
    cuit: '20-22333444-0',
    telefono: '+54 9 11 6123-4455',
    contacto: 'Julián Sosa',
    condiciones_pago: 'Contado contra entrega',
    notas: 'Monotributista. Acepta Mercado Pago.',
  },
  {
    key: 'trigal',
    nombre: 'Panificadora El Trigal',
    cuit: '30-71999888-3',
    telefono: '011 4777-1234',
    estado: 'inactivo',
    notas: 'Dejamos de trabajar con ellos: pan y facturas ahora se hacen en el local.',
  },
];

interface PlannedPurchase {
  /** Days from today. */
  dia: number;
  proveedor: string;
  lineas: [codigo: string, cantidad: number, precio: number][];
  /** Cash purchases: the method; credit purchases: the days until due. */
  metodo?: PaymentMethod;
  plazo?: number;
  /** What happens after the order: received the next day, paid N days after the purchase, cancelled. */
  recibida?: boolean;
  pagada?: number;
  cancelada?: boolean;
  observaciones?: string;
}

/*
 * Four months of orders. Prices rise over time and the last received price of each product is
 * the cost the inventory seed gave it, so margins stay as designed; the products the inventory
 * shows low or out of stock appear only in orders still awaiting delivery.
 */
const PURCHASES: PlannedPurchase[] = [
  {
    dia: -110,
    proveedor: 'sur',
    plazo: 30,
    recibida: true,
    pagada: 28,
    lineas: [
      ['YER001', 24, 2500],
      ['AZU001', 30, 760],
      ['HAR001', 20, 620],
      ['FID001', 24, 800],
    ],
  },
  {
    dia: -95,
    proveedor: 'femsa',
    plazo: 15,
    recibida: true,
    pagada: 14,
    lineas: [
      ['BEB001', 24, 1850],
      ['BEB002', 24, 620],
    ],
  },
  {
    dia: -88,
    proveedor: 'serenisima',
    metodo: 'transferencia',
    recibida: true,
    lineas: [
      ['LEC001', 36, 850],
      ['DDL001', 12, 1500],
    ],
  },
  {
    dia: -75,
    proveedor: 'limpieza',
    metodo: 'efectivo',
    recibida: true,
    lineas: [
      ['LIM001', 24, 580],
      ['LIM002', 12, 1350],
      ['LIM003', 12, 1450],
    ],
  },
  {
    dia: -68,
    proveedor: 'kiosco',
    metodo: 'mercado_pago',
    recibida: true,
    lineas: [
      ['KIO001', 48, 310],
      ['KIO002', 24, 800],
      ['KIO003', 40, 270],
    ],
  },
  {
    dia: -60,
    proveedor: 'sur',
    plazo: 30,
    recibida: true,
    pagada: 29,
    lineas: [
      ['YER001', 24, 2650],
      ['AZU001', 24, 800],
      ['ACE001', 12, 2400],
    ],
  },
  {
    dia: -52,
    proveedor: 'bodega',
    metodo: 'transferencia',
    recibida: true,
    lineas: [
      ['BEB003', 6, 9200],
      ['BEB004', 12, 4900],
    ],
  },
  {
    dia: -45,
    proveedor: 'femsa',
    plazo: 15,
    recibida: true,
    pagada: 15,
    lineas: [
      ['BEB001', 24, 2000],
      ['BEB002', 24, 680],
    ],
  },
  {
    dia: -40,
    proveedor: 'serenisima',
    metodo: 'efectivo',
    recibida: true,
    lineas: [
      ['LEC001', 36, 900],
      ['QUE001', 5, 6100],
    ],
  },
  {
    dia: -30,
    proveedor: 'kiosco',
    metodo: 'efectivo',
    cancelada: true,
    observaciones: 'Pedido duplicado por error: se canceló.',
    lineas: [['KIO001', 48, 330]],
  },
  {
    dia: -24,
    proveedor: 'sur',
    plazo: 30,
    recibida: true,
    observaciones: 'Factura A 0004-00012877',
    lineas: [
      ['YER001', 24, 2800],
      ['AZU001', 24, 850],
      ['HAR001', 20, 700],
      ['FID001', 24, 900],
      ['ACE001', 12, 2600],
    ],
  },
  {
    dia: -20,
    proveedor: 'limpieza',
    metodo: 'efectivo',
    recibida: true,
    lineas: [
      ['LIM001', 12, 650],
      ['LIM002', 12, 1500],
      ['LIM003', 12, 1600],
    ],
  },
  {
    dia: -18,
    proveedor: 'femsa',
    plazo: 15,
    recibida: true,
    lineas: [
      ['BEB001', 24, 2100],
      ['BEB002', 24, 700],
    ],
  },
  {
    dia: -12,
    proveedor: 'bodega',
    metodo: 'transferencia',
    recibida: true,
    lineas: [
      ['BEB003', 6, 9800],
      ['BEB004', 12, 5200],
    ],
  },
  {
    dia: -9,
    proveedor: 'serenisima',
    plazo: 14,
    recibida: true,
    lineas: [
      ['LEC001', 36, 950],
      ['DDL001', 12, 1700],
      ['QUE001', 4, 6500],
    ],
  },
  {
    dia: -7,
    proveedor: 'kiosco',
    metodo: 'mercado_pago',
    recibida: true,
    lineas: [
      ['KIO001', 48, 350],
      ['KIO002', 24, 900],
      ['KIO003', 40, 300],
    ],
  },
  {
    dia: -3,
    proveedor: 'sur',
    plazo: 30,
    observaciones: 'Entrega prometida para el jueves.',
    lineas: [
      ['ARR001', 24, 1300],
      ['YER002', 24, 1500],
    ],
  },
  {
    dia: -1,
    proveedor: 'serenisima',
    metodo: 'transferencia',
    observaciones: 'Pagado por adelantado.',
    lineas: [
      ['YOG001', 12, 1200],
      ['LEC001', 12, 950],
    ],
  },
  {
    dia: 0,
    proveedor: 'bodega',
    plazo: 21,
    lineas: [['BEB005', 24, 1400]],
  },
];

/** 14:00 in Buenos Aires on a date: when the goods arrive or a payment is made. */
const at = (date: string) => new Date(`${date}T17:00:00Z`);

/**
 * Suppliers and a few months of purchase orders for the demo business, written through the
 * purchases service: received orders raised stock and costs, cash orders wrote their expense,
 * credit orders their payable (some already paid, one overdue), one order was cancelled.
 */
export async function seedPurchases(db: Db, businessId: string, userId: string, today: string): Promise<void> {
  const suppliers = new Map<string, string>();
  for (const { key, ...s } of SUPPLIERS) {
    const created = await createSupplier(db, businessId, userId, supplierInput.parse(s), today);
    suppliers.set(key, created.id);
  }
  const rows = await db
    .select({ id: products.id, codigo: products.codigo })
    .from(products)
    .where(and(eq(products.businessId, businessId)));
  const byCode = new Map(rows.map((r) => [r.codigo, r.id]));

  for (const plan of PURCHASES) {
    const fecha = addDays(today, plan.dia);
    const items = plan.lineas
      .filter(([codigo]) => byCode.has(codigo))
      .map(([codigo, cantidad, precio]) => ({ producto_id: byCode.get(codigo)!, cantidad, precio_unitario: precio }));
    if (!items.length) continue;
    const credit = plan.plazo !== undefined;
    const input: PurchaseInput = {
      proveedor_id: suppliers.get(plan.proveedor),
      fecha,
      fecha_entrega: plan.recibida ? addDays(fecha, 1) : addDays(fecha, 2),
      condicion_pago: credit ? 'cuenta_corriente' : 'contado',
      metodo_pago: plan.metodo,
      fecha_vencimiento: credit ? addDays(fecha, plan.plazo!) : undefined,
      observaciones: plan.observaciones,
      items,
    };
    const compra = await createPurchase(db, businessId, userId, purchaseInput.parse(input), today, at(fecha));
    if (plan.recibida) {
      const llegada = addDays(fecha, plan.dia < 0 ? 1 : 0);
      await updatePurchase(db, businessId, userId, compra.id, { estado: 'recibida' }, today, at(llegada));
    }
    if (plan.cancelada) {
      await updatePurchase(db, businessId, userId, compra.id, { estado: 'cancelada' }, today, at(addDays(fecha, 1)));
    }
    if (plan.pagada !== undefined && compra.cuenta_id) {
      const fechaPago = addDays(fecha, plan.pagada);
      await markPaid(
        db,
        businessId,
        userId,
        compra.cuenta_id,
        { fecha_pago: fechaPago, metodo_pago: 'transferencia' },
        today,
        at(fechaPago),
      );
    }
  }
}
