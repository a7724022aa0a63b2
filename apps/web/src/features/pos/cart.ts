import { saleLineCents } from '@mostrador/shared/sales';
import { rankBySearch } from '@mostrador/shared/search-rank';
import { parseDecimal } from '@/lib/decimal';
import type { ItemLista } from '../precios/pos-lista';

/**
 * "1.500" is an amount; "10%" (or "10 %", "2,5%") is a share of the subtotal, rounded down to
 * the cent. Cents, or null when it cannot be read.
 */
export function discountCents(text: string, subtotal: number): { cents: number; percent: boolean } | null {
  const t = text.trim();
  if (!t.endsWith('%')) {
    const d = parseDecimal(t, 2);
    return d === null ? null : { cents: d, percent: false };
  }
  const p = parseDecimal(t.slice(0, -1).trim(), 2);
  if (p === null) return null;
  // Rounded down: "10%" never discounts more than 10 % (the seller's maximum is checked exactly).
  return { cents: Math.floor((subtotal * p) / 10_000), percent: true };
}

/*
 * The point-of-sale cart, as pure functions: quantities in thousandths and prices in cents, so
 * the totals the screen shows are exactly the ones the server will compute.
 */

export interface CatalogItem {
  id: string;
  tipo: 'producto' | 'servicio';
  nombre: string;
  codigo: string | null;
  codigo_barras: string | null;
  /** Cents. */
  precio: number;
  /** Thousandths; null for services. */
  stock: number | null;
  unidad: string;
  /** Products: the Minorista price (cents) when `precio` is another list's (features/precios/pos-lista). */
  precio_minorista?: number;
  /** Products: the price in each list. */
  listas?: ItemLista[];
}

export interface CartLine {
  key: string;
  item: CatalogItem;
  /** Thousandths. */
  cantidad: number;
  /** Cents. */
  precio: number;
  /** The line's discount as typed: an amount or "10%" of the line (empty: none). */
  descuento?: string;
}

export interface CartTotals {
  subtotal: number;
  descuento: number;
  total: number;
  unidades: number;
}

const lineKey = (item: CatalogItem) => `${item.tipo}:${item.id}`;

/** Adds one unit (or `cantidad`) of an item; the same item again adds to its line. */
export function addItem(lines: CartLine[], item: CatalogItem, cantidad = 1000): CartLine[] {
  const key = lineKey(item);
  const existing = lines.find((l) => l.key === key);
  if (existing) return lines.map((l) => (l.key === key ? { ...l, cantidad: l.cantidad + cantidad } : l));
  return [...lines, { key, item, cantidad, precio: item.precio }];
}

export function setQuantity(lines: CartLine[], key: string, cantidad: number): CartLine[] {
  return lines.map((l) => (l.key === key ? { ...l, cantidad } : l));
}

export function setPrice(lines: CartLine[], key: string, precio: number): CartLine[] {
  return lines.map((l) => (l.key === key ? { ...l, precio } : l));
}

export function setLineDiscount(lines: CartLine[], key: string, descuento: string): CartLine[] {
  return lines.map((l) => (l.key === key ? { ...l, descuento } : l));
}

export function removeLine(lines: CartLine[], key: string): CartLine[] {
  return lines.filter((l) => l.key !== key);
}

export const lineGross = (l: CartLine) => saleLineCents(l.cantidad, l.precio);

/** The line's discount in cents, or why it is refused (unreadable, or more than the line). */
export function lineDiscount(l: CartLine): { cents: number; error: string | null } {
  const text = l.descuento?.trim() ?? '';
  if (!text) return { cents: 0, error: null };
  const d = discountCents(text, lineGross(l));
  if (d === null) return { cents: 0, error: LINE_DISCOUNT_MESSAGES.invalid };
  if (d.cents > lineGross(l)) return { cents: 0, error: LINE_DISCOUNT_MESSAGES.tooHigh };
  return { cents: d.cents, error: null };
}

export const LINE_DISCOUNT_MESSAGES = {
  invalid: 'Descuento no válido: escribí un importe o un porcentaje, por ejemplo 10%.',
  tooHigh: 'El descuento de la línea no puede superar su importe.',
} as const;

/** What the line charges: cantidad × precio less its discount. */
export const lineSubtotal = (l: CartLine) => lineGross(l) - lineDiscount(l).cents;

/** Cents taken off the lines by their own discounts. */
export const lineDiscounts = (lines: CartLine[]) => lines.reduce((s, l) => s + lineDiscount(l).cents, 0);

export function totals(lines: CartLine[], descuento = 0): CartTotals {
  const subtotal = lines.reduce((s, l) => s + lineSubtotal(l), 0);
  const d = Math.min(Math.max(0, descuento), subtotal);
  return {
    subtotal,
    descuento: d,
    total: subtotal - d,
    unidades: lines.reduce((s, l) => s + l.cantidad, 0),
  };
}

/**
 * Units counted in whole items: a product sold by the unit, box or pack, and every service. Other
 * units (kg, g, litro, ml, metro, docena — "media docena" is sold —, or a business's own) keep up
 * to 3 decimals. The unit is free text, so compare it loosely ("Unid.", "Cajas").
 */
const COUNTABLE_UNITS = new Set([
  '',
  'u',
  'un',
  'und',
  'unid',
  'unidad',
  'unidades',
  'ud',
  'uds',
  'caja',
  'cajas',
  'paquete',
  'paquetes',
  'pack',
  'packs',
  'par',
  'pares',
  'servicio',
]);

export const isCountable = (item: Pick<CatalogItem, 'tipo' | 'unidad'>) =>
  item.tipo === 'servicio' || COUNTABLE_UNITS.has(item.unidad.trim().toLowerCase().replace(/\.$/, ''));

export const QUANTITY_MESSAGES = {
  wholeOnly: 'Este producto se vende por unidad: ingresá una cantidad entera.',
  invalid: 'Cantidad no válida: ingresá un número mayor que 0, con hasta 3 decimales.',
} as const;

/**
 * A quantity typed for a line: thousandths, or why it is refused. Countable items take whole
 * numbers from 1; the others, more than 0 with up to 3 decimals.
 */
export function checkQuantity(
  text: string,
  item: Pick<CatalogItem, 'tipo' | 'unidad'>,
): { cantidad: number; error: null } | { cantidad: null; error: string } {
  const v = parseDecimal(text, 3);
  if (isCountable(item)) {
    return v !== null && v >= 1000 && v % 1000 === 0
      ? { cantidad: v, error: null }
      : { cantidad: null, error: QUANTITY_MESSAGES.wholeOnly };
  }
  return v !== null && v > 0 ? { cantidad: v, error: null } : { cantidad: null, error: QUANTITY_MESSAGES.invalid };
}

/** A line whose quantity is more than the stock shown when it was added (the server decides). */
export const overStock = (l: CartLine) =>
  l.item.tipo === 'producto' && l.item.stock !== null && l.cantidad > l.item.stock;

/**
 * The item a scanned or typed code names exactly: its barcode, or its code ignoring case. A
 * scanner set to UPC-A sends the 12 digits of an EAN-13 that starts with 0 (our internal codes,
 * GS1 prefix 04, issue 35): that read names the 13-digit barcode too.
 */
export function exactMatch(items: CatalogItem[], code: string): CatalogItem | null {
  const c = code.trim();
  if (!c) return null;
  const low = c.toLowerCase();
  const upcA = /^\d{12}$/.test(c) ? `0${c}` : null;
  return (
    items.find((i) => i.codigo_barras === c) ??
    (upcA ? items.find((i) => i.codigo_barras === upcA) : undefined) ??
    items.find((i) => i.codigo !== null && i.codigo.toLowerCase() === low) ??
    null
  );
}

/** An Idempotency-Key; crypto.randomUUID only exists in secure contexts, so fall back on random bytes. */
export function newKey(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, '0')).join('');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

/**
 * Search results in the order Enter should pick them (shared search-rank.ts, the server's
 * `orden=relevancia`): an exact barcode or code first, then those holding every word typed
 * (numbers and sizes as whole tokens), then the rest as they came.
 */
export const rankCatalog = (items: CatalogItem[], term: string): CatalogItem[] => rankBySearch(items, term);
