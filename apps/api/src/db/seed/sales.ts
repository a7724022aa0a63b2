import { and, asc, eq } from 'drizzle-orm';
import { recordSaleInput, zonedToInstant, type PaymentMethod, type RecordSaleInput } from '@mostrador/shared';
import { addDays } from '../../lib/dates.js';
import { adjustStock } from '../../modules/products/products.service.js';
import { recordSale } from '../../modules/sales/record-sale.js';
import { voidSale } from '../../modules/sales/sales.service.js';
import type { Database } from '../client.js';
import { customers, products, services } from '../schema/index.js';

const TZ = 'America/Argentina/Buenos_Aires';
/** How many days back the demo's sales start. */
export const SALES_DAYS = 120;
const DAYS = SALES_DAYS;

/** A deterministic sequence, so every demo looks the same. */
function random(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (s * 1664525 + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}

const METHODS: [PaymentMethod, number][] = [
  ['efectivo', 0.42],
  ['tarjeta_debito', 0.2],
  ['mercado_pago', 0.18],
  ['tarjeta_credito', 0.1],
  ['transferencia', 0.1],
];

interface PlannedSale {
  at: Date;
  input: RecordSaleInput;
}

/**
 * A few months of counter sales for the demo business, recorded through the sales service (so
 * stock, finance movements, numbering and audit are exactly what the POS writes). The stock each
 * product will sell is added first as a restocking adjustment, so the stock the inventory seed
 * chose (low and empty products included) is where every product ends.
 */
export async function seedSales(database: Database, businessId: string, userId: string, today: string): Promise<void> {
  const { db } = database;
  const rnd = random(20260315);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(rnd() * xs.length)];
  const prods = await db
    .select({ id: products.id, precio: products.precioVenta, unidad: products.unidad })
    .from(products)
    .where(and(eq(products.businessId, businessId), eq(products.activo, true)))
    .orderBy(asc(products.nombre));
  const servs = await db
    .select({ id: services.id })
    .from(services)
    .where(and(eq(services.businessId, businessId), eq(services.activo, true)))
    .orderBy(asc(services.nombre));
  const clients = await db
    .select({ id: customers.id })
    .from(customers)
    .where(eq(customers.businessId, businessId))
    .orderBy(asc(customers.nombre));
  if (!prods.length) return;
  // Everyday staples sell more than the expensive bottles.
  const weighted = prods.flatMap((p) => Array(Number(p.precio) <= 4000 ? 4 : 1).fill(p) as typeof prods);
  const method = () => {
    let r = rnd();
    for (const [m, w] of METHODS) if ((r -= w) < 0) return m;
    return 'efectivo' as PaymentMethod;
  };

  const now = new Date();
  const plan: PlannedSale[] = [];
  const demand = new Map<string, number>();
  for (let d = addDays(today, -DAYS); d <= today; d = addDays(d, 1)) {
    const weekday = new Date(`${d}T12:00:00Z`).getUTCDay();
    // Sales pick up in the last weeks, so the month-on-month chart has a shape.
    const trend =
      0.8 +
      (0.4 * (DAYS - Math.max(0, (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${d}T00:00:00Z`)) / 86_400_000))) /
        DAYS;
    const base = weekday === 0 ? 1 : weekday === 6 ? 11 : 7;
    const count = Math.round(base * trend + rnd() * 3);
    for (let i = 0; i < count; i++) {
      const minutes = 9 * 60 + Math.floor(rnd() * (11.5 * 60));
      const at = zonedToInstant(
        `${d}T${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`,
        TZ,
      );
      if (at > now) continue;
      const lines = new Map<string, { id: string; tipo: 'producto' | 'servicio'; cantidad: number }>();
      const n = 1 + Math.floor(rnd() * 6);
      for (let k = 0; k < n; k++) {
        const p = pick(weighted);
        const milli = p.unidad === 'kg' ? 250 + 50 * Math.floor(rnd() * 20) : 1000 * (rnd() < 0.75 ? 1 : 2);
        const line = lines.get(p.id) ?? { id: p.id, tipo: 'producto' as const, cantidad: 0 };
        line.cantidad += milli;
        lines.set(p.id, line);
        demand.set(p.id, (demand.get(p.id) ?? 0) + milli);
      }
      if (servs.length && rnd() < 0.08) {
        const s = pick(servs);
        lines.set(s.id, { id: s.id, tipo: 'servicio', cantidad: 1000 });
      }
      plan.push({
        at,
        input: {
          metodo_pago: method(),
          cliente_id: clients.length && rnd() < 0.3 ? pick(clients).id : null,
          items: [...lines.values()].map((l) => ({ ...l, cantidad: l.cantidad / 1000 })),
        },
      });
    }
  }
  plan.sort((a, b) => a.at.getTime() - b.at.getTime());

  for (const [productId, milli] of demand) {
    await adjustStock(db, businessId, userId, productId, { cantidad: milli, motivo: 'Reposición de mercadería' });
  }
  const recorded: { id: string; at: Date }[] = [];
  for (const s of plan) {
    const r = await recordSale(
      database,
      { businessId, userId, timezone: TZ, now: s.at },
      recordSaleInput.parse(s.input),
    );
    recorded.push({ id: r.body.id, at: s.at });
  }
  // A few voided sales, as a real counter has.
  const reasons = ['Error de carga', 'El cliente devolvió la mercadería', 'Cobro duplicado'];
  for (let i = 0; i < reasons.length && recorded.length > 40; i++) {
    const s = recorded[recorded.length - 5 - i * 17];
    await voidSale(
      db,
      { businessId, userId, timezone: TZ, now: new Date(s.at.getTime() + 20 * 60_000) },
      s.id,
      reasons[i],
    );
  }
}
