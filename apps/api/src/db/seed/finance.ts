import { asc, eq } from 'drizzle-orm';
import { centsToDecimal, type MovementType, type PaymentMethod } from '@mostrador/shared';
import { addDays } from '../../lib/dates.js';
import { createAccount, markPaid } from '../../modules/finance/accounts.service.js';
import type { Db } from '../client.js';
import { customers, financeCategories, financeMovements } from '../schema/index.js';

const CATEGORIES: { nombre: string; tipo: MovementType; descripcion: string | null; activo?: boolean }[] = [
  {
    nombre: 'Otros ingresos',
    tipo: 'ingreso',
    descripcion: 'Ingresos que no vienen de ventas: alquileres de espacio, reintegros.',
  },
  { nombre: 'Cobranzas', tipo: 'ingreso', descripcion: 'Cobro de cuentas corrientes de clientes.' },
  { nombre: 'Alquiler', tipo: 'egreso', descripcion: 'Alquiler del local.' },
  { nombre: 'Servicios', tipo: 'egreso', descripcion: 'Luz, gas, agua, internet y teléfono.' },
  { nombre: 'Sueldos', tipo: 'egreso', descripcion: 'Sueldos y cargas sociales.' },
  { nombre: 'Impuestos', tipo: 'egreso', descripcion: 'Monotributo, Ingresos Brutos y tasas municipales.' },
  { nombre: 'Mantenimiento', tipo: 'egreso', descripcion: null, activo: false },
];

/** A small deterministic generator, so the demo looks the same every time it is seeded. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Whole pesos between min and max, sometimes with cents. */
const amount = (rnd: () => number, min: number, max: number) => {
  const pesos = Math.round(min + rnd() * (max - min));
  return pesos * 100 + (rnd() < 0.3 ? Math.floor(rnd() * 100) : 0);
};

/**
 * Finance demo data: extra categories, about three months of movements of a neighbourhood
 * store (amounts in ARS) and receivables and payables — some overdue, some due soon, some paid.
 */
/**
 * `trading`: also write the day's sales income and the weekly restocking expenses as manual
 * movements — for a business without recorded sales and purchases. `days`: how far back the
 * movements start. The full demo records those
 * through the sales and purchases modules, which write their own movements, so it turns this off
 * (otherwise the same money would be counted twice).
 */
export async function seedFinance(
  db: Db,
  businessId: string,
  userId: string,
  today: string,
  { trading = true, days = 92 }: { trading?: boolean; days?: number } = {},
) {
  await db
    .insert(financeCategories)
    .values(
      CATEGORIES.map((c) => ({
        businessId,
        nombre: c.nombre,
        tipo: c.tipo,
        descripcion: c.descripcion,
        activo: c.activo ?? true,
      })),
    )
    .onConflictDoNothing();
  const cats = await db.select().from(financeCategories).where(eq(financeCategories.businessId, businessId));
  const cat = (nombre: string) => cats.find((c) => c.nombre === nombre)?.id ?? null;
  const clients = await db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.businessId, businessId))
    .orderBy(asc(customers.creadoEn), asc(customers.id));

  const rnd = random(20260315);
  type Row = typeof financeMovements.$inferInsert;
  const rows: Row[] = [];
  const add = (
    fecha: string,
    tipo: MovementType,
    categoria: string,
    cents: number,
    metodo: PaymentMethod,
    descripcion: string,
    extra: Partial<Row> = {},
  ) =>
    rows.push({
      businessId,
      tipo,
      categoriaId: cat(categoria),
      monto: centsToDecimal(cents),
      fecha,
      metodoPago: metodo,
      descripcion,
      origen: 'manual',
      creadoPor: userId,
      ...extra,
    });

  const start = addDays(today, -days);
  for (let d = start; d <= today; d = addDays(d, 1)) {
    const date = new Date(`${d}T12:00:00Z`);
    const weekday = date.getUTCDay();
    const day = date.getUTCDate();
    if (trading && weekday !== 0) {
      const busy = weekday === 5 || weekday === 6 ? 1.4 : 1;
      add(
        d,
        'ingreso',
        'Ventas',
        Math.round(amount(rnd, 110_000, 220_000) * busy),
        'efectivo',
        'Ventas del día en efectivo',
      );
      add(
        d,
        'ingreso',
        'Ventas',
        Math.round(amount(rnd, 80_000, 170_000) * busy),
        rnd() < 0.5 ? 'tarjeta_debito' : 'mercado_pago',
        'Ventas del día con tarjeta y QR',
      );
    }
    if (trading && weekday === 2) {
      add(
        d,
        'egreso',
        'Compras',
        amount(rnd, 280_000, 520_000),
        'transferencia',
        'Reposición de mercadería - Distribuidora Mayorista Sur',
      );
    }
    if (trading && weekday === 4 && rnd() < 0.6) {
      add(d, 'egreso', 'Compras', amount(rnd, 90_000, 180_000), 'efectivo', 'Lácteos y fiambres - reparto semanal');
    }
    // Wages at the month's end and rent by the 10th, of the months the demo covers whole: the
    // month's sales have come in by then, so it reads healthy whatever day it is seeded.
    const wholeMonth = `${d.slice(0, 7)}-01` >= start;
    if (wholeMonth && addDays(d, 1).endsWith('-01'))
      add(d, 'egreso', 'Sueldos', 980_000_00, 'transferencia', 'Sueldo y cargas sociales (1 empleado)');
    if (wholeMonth && day === 10) add(d, 'egreso', 'Alquiler', 560_000_00, 'transferencia', 'Alquiler del local');
    if (day === 14) add(d, 'egreso', 'Servicios', amount(rnd, 70_000, 95_000), 'transferencia', 'Luz - Edenor');
    if (day === 12) add(d, 'egreso', 'Servicios', amount(rnd, 25_000, 38_000), 'transferencia', 'Gas - Metrogas');
    if (day === 15) add(d, 'egreso', 'Servicios', 28_499_99, 'tarjeta_credito', 'Internet y teléfono');
    if (day === 20)
      add(d, 'egreso', 'Impuestos', amount(rnd, 85_000, 105_000), 'transferencia', 'Monotributo e Ingresos Brutos');
    if (day === 8) add(d, 'ingreso', 'Otros ingresos', 40_000_00, 'transferencia', 'Espacio publicitario en heladera');
    if (day === 18 && clients[0]) {
      add(d, 'ingreso', 'Cobranzas', amount(rnd, 20_000, 60_000), 'efectivo', 'Cobro cuenta corriente', {
        clienteId: clients[0].id,
      });
    }
    if (day === 25 && rnd() < 0.7)
      add(d, 'egreso', 'Mantenimiento', 35_000_00, 'efectivo', 'Service de la heladera exhibidora');
  }
  // A movement without category and description, as the lists must show them too.
  add(addDays(today, -2), 'egreso', '', 12_500_00, 'efectivo', '', { categoriaId: null, descripcion: null });
  await db.insert(financeMovements).values(rows);

  const now = new Date();
  const receivable = async (i: number, monto: number, emision: number, vence: number, descripcion: string) =>
    createAccount(
      db,
      businessId,
      userId,
      {
        tipo: 'por_cobrar',
        cliente_id: clients.length ? clients[i % clients.length].id : null,
        monto,
        fecha_emision: addDays(today, emision),
        fecha_vencimiento: addDays(today, vence),
        descripcion,
        observaciones: null,
      },
      today,
    );
  const payable = async (proveedor: string, monto: number, emision: number, vence: number, descripcion: string) =>
    createAccount(
      db,
      businessId,
      userId,
      {
        tipo: 'por_pagar',
        proveedor_nombre: proveedor,
        monto,
        fecha_emision: addDays(today, emision),
        fecha_vencimiento: addDays(today, vence),
        descripcion,
        observaciones: null,
      },
      today,
    );

  await receivable(0, 45_800_00, -25, -10, 'Fiado de mercadería de la quincena');
  await receivable(3, 320_000_00, -12, 3, 'Venta mayorista - Factura B 0003-00001234');
  await receivable(1, 18_500_50, -5, 20, 'Pedido de cumpleaños con entrega a domicilio');
  const paidReceivable = await receivable(2, 62_300_00, -40, -20, 'Canasta navideña para empresa');
  await markPaid(
    db,
    businessId,
    userId,
    paidReceivable.id,
    { fecha_pago: addDays(today, -18), metodo_pago: 'transferencia' },
    today,
    now,
  );

  await payable('Coca-Cola FEMSA', 254_000_00, -33, -3, 'Bebidas - Factura A 0012-00098765');
  await payable('La Serenísima', 186_400_00, -9, 5, 'Lácteos - Factura A 0001-00045678');
  await payable('Distribuidora Mayorista Sur', 412_750_00, -4, 25, 'Almacén seco - pedido quincenal');
  await payable('Estudio Contable Pérez', 95_000_00, 0, 0, 'Honorarios del contador');
  const paidPayable = await payable('Panificadora El Trigal', 96_300_00, -20, -6, 'Pan y facturas del mes');
  await markPaid(
    db,
    businessId,
    userId,
    paidPayable.id,
    { fecha_pago: addDays(today, -8), metodo_pago: 'efectivo' },
    today,
    now,
  );
}
