import {
  centsToNumber,
  MAX_MONEY_CENTS,
  SALE_MESSAGES,
  saleLineCents,
  type RecordSaleOutput,
  type SaleItemType,
} from '@mostrador/shared';
import type { SQL } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';
import type { Row } from '../../db/pipeline.js';
import { AppError, invalid } from '../../lib/errors.js';
import { toCents, toMilli } from '../products/common.js';
import { listaPricer, listaReads } from '../sales/lista-venta.js';
import { customerSql, lockProductsSql, servicesSql } from '../sales/record-sale.queries.js';
import type { SaleContext } from '../sales/sales.service.js';

/*
 * The lines of a presupuesto or a remito priced as the POS prices a sale (decision 0056): the
 * customer's list (lista-venta.ts), the product's own price otherwise, a price given by hand only
 * from a member who may change prices, and line and total discounts within their maximum.
 */

export interface DocLine {
  posicion: number;
  tipo: SaleItemType;
  id: string;
  nombre: string;
  /** Thousandths. */
  cantidad: number;
  /** Cents. */
  precio: number;
  precioLista: number;
  descuento: number;
  subtotal: number;
}

export interface StockInfo {
  nombre: string;
  /** Thousandths, read under the row lock. */
  stock: number;
  controla: boolean;
  sinStock: boolean;
}

export interface Priced {
  lines: DocLine[];
  subtotal: number;
  descuento: number;
  total: number;
  clienteNombre: string;
  /** The products, locked FOR UPDATE until the caller's transaction ends. */
  productos: Map<string, StockInfo>;
}

type Item = RecordSaleOutput['items'][number];

async function run(ex: Executor, statements: [string, SQL][]): Promise<Map<string, Row[]>> {
  const out = new Map<string, Row[]>();
  for (const [name, q] of statements) out.set(name, (await ex.execute(q)).rows as Row[]);
  return out;
}

/**
 * Prices `items` for `clienteId` inside the caller's transaction (the products stay locked).
 * 422 for an unknown customer or item, or an inactive one; 403 for a price changed by a member who
 * may not, or a discount over their maximum. `conPrecios: false` ignores the prices given (today's).
 */
export async function priceDocument(
  ex: Executor,
  c: SaleContext,
  clienteId: string,
  items: Item[],
  descuentoTotal: number,
  o: { conPrecios?: boolean } = {},
): Promise<Priced> {
  const ids = (tipo: SaleItemType) => [...new Set(items.filter((i) => i.tipo === tipo).map((i) => i.id))];
  const productIds = ids('producto');
  const serviceIds = ids('servicio');
  const input = { cliente_id: clienteId, items } as RecordSaleOutput;
  const read = await run(ex, [
    ['cliente', customerSql(c.businessId, clienteId, false)],
    ...(productIds.length ? ([['producto', lockProductsSql(c.businessId, productIds)]] as [string, SQL][]) : []),
    ...(serviceIds.length ? ([['servicio', servicesSql(c.businessId, serviceIds)]] as [string, SQL][]) : []),
    ...listaReads(c, input, productIds),
  ]);
  const cliente = read.get('cliente')?.[0];
  if (!cliente) throw invalid('cliente_id', SALE_MESSAGES.customerNotInBusiness);
  const listPrice = listaPricer(c, input, read);
  const byId = (name: string) => new Map((read.get(name) ?? []).map((r) => [r.id as string, r]));
  const cat = { producto: byId('producto'), servicio: byId('servicio') };

  const lines = items.map((item, i): DocLine => {
    const found = cat[item.tipo].get(item.id);
    if (!found) {
      throw invalid(
        `items.${i}.id`,
        item.tipo === 'producto' ? SALE_MESSAGES.productNotInBusiness : SALE_MESSAGES.serviceNotInBusiness,
      );
    }
    const nombre = found.nombre as string;
    if (!found.activo) {
      throw invalid(
        `items.${i}.id`,
        item.tipo === 'producto' ? SALE_MESSAGES.productInactive(nombre) : SALE_MESSAGES.serviceInactive(nombre),
      );
    }
    const base = toCents(found.precio as string);
    const precioLista = item.tipo === 'producto' && listPrice ? listPrice(item.id, item.cantidad, base) : base;
    const precio = o.conPrecios === false ? precioLista : (item.precio ?? precioLista);
    const bruto = saleLineCents(item.cantidad, precio);
    if (bruto > MAX_MONEY_CENTS) throw invalid(`items.${i}.cantidad`, SALE_MESSAGES.tooMuch);
    const descuento = item.descuento ?? 0;
    if (descuento > bruto) throw invalid(`items.${i}.descuento`, SALE_MESSAGES.lineDiscountTooHigh);
    return {
      posicion: i,
      tipo: item.tipo,
      id: item.id,
      nombre,
      cantidad: item.cantidad,
      precio,
      precioLista,
      descuento,
      subtotal: bruto - descuento,
    };
  });
  const subtotal = lines.reduce((s, l) => s + l.subtotal, 0);
  if (subtotal > MAX_MONEY_CENTS) throw invalid('items', SALE_MESSAGES.tooMuch);
  if (descuentoTotal > subtotal) throw invalid('descuento', SALE_MESSAGES.discountTooHigh);
  checkControls(c, lines, descuentoTotal);

  const productos = new Map<string, StockInfo>(
    (read.get('producto') ?? []).map((r) => [
      r.id as string,
      {
        nombre: r.nombre as string,
        stock: toMilli(r.stock as string),
        controla: r.controla !== false,
        sinStock: r.sin_stock === true,
      },
    ]),
  );
  return {
    lines,
    subtotal,
    descuento: descuentoTotal,
    total: subtotal - descuentoTotal,
    clienteNombre: cliente.nombre as string,
    productos,
  };
}

/** As at the counter: without cambiar_precios, list prices and at most the member's discount. */
function checkControls(c: SaleContext, lines: DocLine[], descuentoTotal: number) {
  if (!c.precios || c.precios.cambiar) return;
  const changed = lines.find((l) => l.precio !== l.precioLista);
  if (changed) {
    throw new AppError(403, 'PRICE_CHANGE_FORBIDDEN', SALE_MESSAGES.priceChangeForbidden(changed.nombre), {
      field: `items.${changed.posicion}.precio`,
    });
  }
  const max = c.precios.descuentoMaximo;
  if (max === null) return;
  const bruto = lines.reduce((s, l) => s + l.subtotal + l.descuento, 0);
  const descuento = descuentoTotal + lines.reduce((s, l) => s + l.descuento, 0);
  if (descuento > 0 && BigInt(descuento) * 10_000n > BigInt(bruto) * BigInt(Math.round(max * 100))) {
    throw new AppError(403, 'DISCOUNT_OVER_MAX', SALE_MESSAGES.discountOverMax(max), { field: 'descuento' });
  }
}

/** Money of a stored numeric as a plain number for the API. */
export const amount = (v: unknown) => centsToNumber(toCents(v as string));
