import type { PosCatalogo, PosCliente, PosProducto, PosServicio } from '@mostrador/shared/pos-catalogo';
import { ApiError, request } from '@/lib/api';
import { offlineCache, warmOfflineCache } from '@/lib/offline-cache';
import { preloadAllParts } from '@/lib/lazy-part';
import { session } from '@/lib/session';
import { foldSearch, searchRank, searchText, searchTokens } from '@mostrador/shared/search-rank';
import { newKey, type CatalogItem } from '../cart';
import { get, put, queueOf, remove, STORES } from './idb';

/*
 * The offline point of sale (issue 18, decision 0014): the catalogue kept on the device and the
 * queue of what was done at the counter, both in IndexedDB. Every sale, customer and caja
 * movement is written to the queue before anything else (before the ticket prints), with its id
 * made here; that id is its Idempotency-Key, so sending it again never records it twice. The
 * queue is sent in order, one item at a time, whenever the server answers.
 */

export type QueueKind = 'venta' | 'cliente' | 'movimiento';

export interface QueueItem {
  /** Made on the device; the Idempotency-Key unless `clave` replaces it. */
  id: string;
  clave?: string;
  /** Order of creation. */
  seq: number;
  businessId: string;
  userId: string;
  tipo: QueueKind;
  path: string;
  body: Record<string, unknown>;
  creada_en: string;
  /** "Venta por $ 1.200,00", "Cliente Ana Pérez": what the pending list shows. */
  descripcion: string;
  estado: 'pendiente' | 'rechazada';
  error?: { detail: string; code: string };
  /** Sent while the cashier waits (online): a refusal goes back to the cashier, not to the list. */
  directa?: boolean;
}

export interface StoredCatalogo extends Omit<PosCatalogo, 'completo' | 'eliminados'> {
  businessId: string;
  /** What one member may see (costs, customers): another user starts with a full download. */
  userId: string;
  actualizado_en: string;
}

export interface OfflineState {
  online: boolean;
  syncing: boolean;
  pendientes: number;
  rechazadas: QueueItem[];
  /** Pending items another user made on this device (they sync when that user signs in). */
  deOtros: number;
  catalogo: StoredCatalogo | null;
  /** The last sales the queue sent, with the number each got. */
  enviadas: { id: string; numero: number; descripcion: string }[];
}

type Result = { ok: true; data: { id: string; numero?: number } } | { ok: false; error: ApiError };

let businessId: string | null = null;
let userId: string | null = null;
let state: OfflineState = {
  online: typeof navigator === 'undefined' ? true : navigator.onLine,
  syncing: false,
  pendientes: 0,
  rechazadas: [],
  deOtros: 0,
  catalogo: null,
  enviadas: [],
};
const listeners = new Set<() => void>();
const results = new Map<string, Result>();
let seqCounter = 0;

function set(patch: Partial<OfflineState>) {
  state = { ...state, ...patch };
  for (const l of listeners) l();
}

export const offlineStore = {
  subscribe(l: () => void) {
    listeners.add(l);
    return () => listeners.delete(l);
  },
  get: () => state,
};

/** A UUID (also over plain HTTP on the shop's network, where crypto.randomUUID does not exist). */
export const newId = (): string => newKey();
export const isNetworkError = (e: unknown) => e instanceof ApiError && (e.status === 0 || e.status >= 500);

async function recount() {
  if (!businessId) return;
  const all = await queueOf<QueueItem>(businessId);
  const mine = all.filter((i) => i.userId === userId);
  set({
    pendientes: mine.filter((i) => i.estado === 'pendiente').length,
    rechazadas: mine.filter((i) => i.estado === 'rechazada'),
    deOtros: all.filter((i) => i.userId !== userId && i.estado === 'pendiente').length,
  });
}

/** Starts (or switches) the offline POS for this business and user: loads what the device has. */
export async function start(b: string, u: string) {
  if (businessId === b && userId === u) return;
  businessId = b;
  userId = u;
  set({ catalogo: null, enviadas: [] });
  const kept = await get<StoredCatalogo>(STORES.catalogos, b).catch(() => undefined);
  if (businessId !== b) return;
  const stored = kept?.userId === u ? kept : undefined;
  set({ catalogo: stored ?? null });
  void installOfflineShell();
  // A sale the cashier was waiting for when the page went away (reload, power cut) is now an
  // item like the others: a refusal goes to the list instead of to a cashier no longer there.
  for (const i of await queueOf<QueueItem>(b).catch(() => [] as QueueItem[])) {
    if (i.directa) await put(STORES.cola, { ...i, directa: false });
  }
  await recount();
  void refreshCatalogo();
  void flush();
}

function markOnline(online: boolean) {
  if (state.online !== online) set({ online });
}

if (typeof window !== 'undefined') {
  window.addEventListener('online', () => {
    markOnline(true);
    void flush().then(() => refreshCatalogo());
  });
  window.addEventListener('offline', () => markOnline(false));
  // Whatever is pending is tried again now and then (the network may come back without an event).
  setInterval(() => {
    if (state.pendientes > 0) void flush();
  }, 15_000);
}

/* ---------------------------------------------------------------- the catalogue */

function mergeById<T extends { id: string }>(old: T[], changed: T[], gone: string[]): T[] {
  const m = new Map(old.map((x) => [x.id, x]));
  for (const x of changed) m.set(x.id, x);
  for (const id of gone) m.delete(id);
  return [...m.values()];
}

let refreshing: Promise<void> | null = null;

/** Downloads the whole catalogue the first time, then only what changed since the last cursor. */
export function refreshCatalogo(): Promise<void> {
  const b = businessId;
  if (!b) return Promise.resolve();
  refreshing ??= (async () => {
    try {
      const prev = state.catalogo;
      const { data: c } = await request<PosCatalogo>(`/businesses/${b}/pos/catalogo`, {
        query: { desde: prev?.cursor },
        signal: AbortSignal.timeout(30_000),
      });
      markOnline(true);
      if (businessId !== b) return;
      // Customers made here and not yet sent stay in the catalogue.
      const local = (prev?.clientes ?? []).filter((x) => localCustomers.has(x.id));
      const next: StoredCatalogo = {
        businessId: b,
        userId: userId ?? '',
        cursor: c.cursor,
        productos: c.completo || !prev ? c.productos : mergeById(prev.productos, c.productos, c.eliminados.productos),
        servicios: c.completo || !prev ? c.servicios : mergeById(prev.servicios, c.servicios, c.eliminados.servicios),
        clientes: mergeById(c.completo || !prev ? local : prev.clientes, c.clientes, c.eliminados.clientes),
        medios_pago: c.medios_pago,
        turno: c.turno,
        configuracion: c.configuracion,
        actualizado_en: new Date().toISOString(),
      };
      await put(STORES.catalogos, next);
      set({ catalogo: next });
      searchIndex = null;
    } catch (e) {
      if (isNetworkError(e)) markOnline(false);
    } finally {
      refreshing = null;
    }
  })();
  return refreshing;
}

const localCustomers = new Set<string>();

const cents = (n: number) => Math.round(n * 100);
const milli = (n: number) => Math.round(n * 1000);
const productItem = (p: PosProducto): CatalogItem => ({
  id: p.id,
  tipo: 'producto',
  nombre: p.nombre,
  codigo: p.codigo,
  codigo_barras: p.codigo_barras,
  precio: cents(p.precio_venta),
  stock: p.controla_stock ? milli(p.stock_actual) : null,
  unidad: p.unidad,
});
const serviceItem = (s: PosServicio): CatalogItem => ({
  id: s.id,
  tipo: 'servicio',
  nombre: s.nombre,
  codigo: null,
  codigo_barras: null,
  precio: cents(s.precio),
  stock: null,
  unidad: 'servicio',
});

/** Folded as the products' `busqueda` (search-rank.ts). */
const fold = foldSearch;

type IndexEntry = { item: CatalogItem; text: string };
let searchIndex: IndexEntry[] | null = null;

/** An item as the local search reads it: folded as the products' `busqueda`. */
export const indexEntry = (item: CatalogItem): IndexEntry => ({ item, text: searchText(item) });

const byName = new Intl.Collator('es-AR');

/**
 * The items whose name or codes contain every word of `q` (as the server finds them), ranked as
 * the server's `orden=relevancia` ranks them (decision 0050): by rank, then by name.
 */
export function searchIndexed(index: IndexEntry[], q: string, limit: number): CatalogItem[] {
  const words = fold(q.trim()).split(/\s+/).filter(Boolean);
  if (!words.length) return [];
  const tokens = searchTokens(q);
  const found: { item: CatalogItem; rank: number }[] = [];
  for (const e of index) {
    if (words.every((w) => e.text.includes(w)))
      found.push({ item: e.item, rank: searchRank(e.item, q, tokens, e.text) });
  }
  return found
    .sort((a, b) => a.rank - b.rank || byName.compare(a.item.nombre, b.item.nombre))
    .slice(0, limit)
    .map((f) => f.item);
}

/** Products and services on the device whose name or codes contain every word of `q`, best first. */
export function searchLocal(q: string, limit = 8): CatalogItem[] {
  const c = state.catalogo;
  if (!c) return [];
  searchIndex ??= [...c.productos.map(productItem), ...c.servicios.map(serviceItem)].map(indexEntry);
  return searchIndexed(searchIndex, q, limit);
}

export function searchLocalCustomers(q: string, limit = 8): PosCliente[] {
  const words = fold(q.trim()).split(/\s+/).filter(Boolean);
  const all = state.catalogo?.clientes ?? [];
  return all
    .filter((c) => {
      const text = fold(`${c.nombre} ${c.apellido ?? ''} ${c.documento_numero ?? ''} ${c.email ?? ''}`);
      return words.every((w) => text.includes(w));
    })
    .slice(0, limit);
}

/* ---------------------------------------------------------------- the queue */

async function enqueue(
  tipo: QueueKind,
  path: string,
  body: Record<string, unknown>,
  descripcion: string,
  id = newId(),
  directa = false,
): Promise<QueueItem> {
  if (!businessId || !userId) throw new Error('El punto de venta sin conexión no está listo.');
  const item: QueueItem = {
    id,
    seq: Date.now() * 1000 + (seqCounter++ % 1000),
    businessId,
    userId,
    tipo,
    path,
    body,
    creada_en: new Date().toISOString(),
    descripcion,
    estado: 'pendiente',
    directa,
  };
  await put(STORES.cola, item);
  set({ pendientes: state.pendientes + 1 });
  return item;
}

let flushing: Promise<void> | null = null;

/** Sends the pending items of this business and user, in order, until one cannot reach the server. */
export function flush(): Promise<void> {
  flushing ??= (async () => {
    set({ syncing: true });
    try {
      const b = businessId;
      if (!b) return;
      for (;;) {
        const next = (await queueOf<QueueItem>(b)).find((i) => i.userId === userId && i.estado === 'pendiente');
        if (!next || businessId !== b) break;
        if (!(await send(next))) break;
      }
    } finally {
      set({ syncing: false });
      flushing = null;
      await recount();
    }
  })();
  return flushing;
}

/** One item: true when the server answered (recorded or refused), false to stop and retry later. */
async function send(item: QueueItem): Promise<boolean> {
  try {
    const { data } = await request<{ id: string; numero?: number }>(item.path, {
      method: 'POST',
      body: item.body,
      headers: { 'Idempotency-Key': item.clave ?? item.id },
      signal: AbortSignal.timeout(20_000),
    });
    markOnline(true);
    await remove(STORES.cola, item.id);
    if (item.directa) results.set(item.id, { ok: true, data });
    if (item.tipo === 'cliente') localCustomers.delete(item.id);
    if (item.tipo === 'venta' && typeof data.numero === 'number' && !item.directa) {
      set({
        enviadas: [{ id: data.id, numero: data.numero, descripcion: item.descripcion }, ...state.enviadas].slice(0, 20),
      });
    }
    return true;
  } catch (e) {
    if (!(e instanceof ApiError) || isNetworkError(e) || e.status === 401 || e.status === 429) {
      if (e instanceof ApiError && e.status === 0) markOnline(false);
      return false;
    }
    // A sale whose answer never came while the cashier waited, and stock ran short since: it did
    // happen, so it goes again as an offline sale. The 409 proves the first one was not recorded,
    // so a new key cannot make a second sale.
    if (item.tipo === 'venta' && e.code === 'INSUFFICIENT_STOCK' && !item.body.offline && !item.directa) {
      const again: QueueItem = {
        ...item,
        clave: `${item.id}:offline`,
        body: { ...item.body, offline: offlineMark(item.creada_en) },
      };
      await put(STORES.cola, again);
      return send(again);
    }
    if (item.directa) results.set(item.id, { ok: false, error: e });
    if (item.directa) await remove(STORES.cola, item.id);
    else await put(STORES.cola, { ...item, estado: 'rechazada', error: { detail: e.message, code: e.code } });
    return true;
  }
}

const DEVICE_KEY = 'mostrador-pos-dispositivo';
/** A name for this device, kept with its sales (the offline field of record-sale). */
export function deviceName(): string {
  try {
    const known = localStorage.getItem(DEVICE_KEY);
    if (known) return known;
    const d = `dispositivo-${newId().slice(0, 8)}`;
    localStorage.setItem(DEVICE_KEY, d);
    return d;
  } catch {
    return 'dispositivo';
  }
}

const offlineMark = (creada_en: string) => ({ creada_en, dispositivo: deviceName() });

export type Outcome<T> = { estado: 'registrada'; data: T } | { estado: 'pendiente'; id: string };

/**
 * Records something done at the counter: kept in the queue first, then, when the server is
 * reachable, the queue is sent (in order: a customer made offline before the sale that names it)
 * and the answer returned. Without a connection it stays pending. A refusal of what the cashier is
 * waiting for is thrown (and not kept), as before.
 */
async function record<T>(
  tipo: QueueKind,
  path: string,
  body: Record<string, unknown>,
  descripcion: string,
  id: string,
) {
  const offline = !state.online;
  let stored: QueueItem;
  try {
    stored = await enqueue(
      tipo,
      path,
      tipo === 'venta' && offline ? { ...body, offline: offlineMark(new Date().toISOString()) } : body,
      descripcion,
      id,
      !offline,
    );
  } catch (e) {
    // No IndexedDB here (a private window of some browsers): straight to the server, as before.
    if (offline)
      throw new Error('Sin conexión y sin lugar en este dispositivo para guardar la operación.', { cause: e });
    const { data } = await request<T>(path, { method: 'POST', body, headers: { 'Idempotency-Key': id } });
    return { estado: 'registrada', data } as const;
  }
  if (!offline) {
    // Twice: a send already under way may have looked at the queue before this item was in it.
    await flush();
    if (!results.has(stored.id)) await flush();
    const r = results.get(stored.id);
    if (r) {
      results.delete(stored.id);
      if (r.ok) return { estado: 'registrada', data: r.data as T } as const;
      throw r.error;
    }
    // No answer: from now on it is an item of the queue like the others (its refusal goes to the list).
    await put(STORES.cola, { ...stored, directa: false });
  }
  return { estado: 'pendiente', id: stored.id } as const;
}

export const recordSale = (body: Record<string, unknown>, key: string, descripcion: string) =>
  record<{ id: string; numero: number; sin_factura?: string }>('venta', '/ventas/record-sale', body, descripcion, key);

export async function recordCustomer(body: Record<string, unknown>, descripcion: string) {
  const b = businessId!;
  const id = newId();
  const r = await record<PosCliente>('cliente', `/businesses/${b}/clientes`, { ...body, id }, descripcion, id);
  if (r.estado === 'pendiente') {
    localCustomers.add(id);
    const c = state.catalogo;
    const cliente = { ...body, id } as unknown as PosCliente;
    if (c) {
      const next = { ...c, clientes: [...c.clientes, cliente] };
      await put(STORES.catalogos, next);
      set({ catalogo: next });
    }
    return cliente;
  }
  return r.data;
}

export const recordMovimiento = (
  turnoId: string,
  body: { tipo: 'ingreso' | 'retiro'; monto: number; motivo: string },
  descripcion: string,
) => record('movimiento', `/businesses/${businessId}/turnos/${turnoId}/movimientos`, body, descripcion, newId());

/** Tries a refused item again (after fixing what the message says), or drops it. */
export async function retry(id: string) {
  const item = state.rechazadas.find((i) => i.id === id);
  if (!item) return;
  // A refused request recorded nothing: a fresh key is safe. A closed turno: the sale goes to
  // the turno open now (the server picks it as for any sale that names none).
  const body = { ...item.body };
  if (item.error?.code === 'TURNO_CLOSED') delete body.turno_id;
  await put(STORES.cola, { ...item, body, estado: 'pendiente', error: undefined, clave: newId() });
  await recount();
  await flush();
}

export async function discard(id: string) {
  await remove(STORES.cola, id);
  await recount();
}

/**
 * Installs the service worker that keeps the application shell (public/sw.js) and keeps what
 * this page already loaded, so that the POS opens again without a connection. Secure contexts
 * only: over plain HTTP on the shop's network there is no service worker and no Cache API; the
 * queue in IndexedDB still keeps every sale while the page stays open (decision 0014).
 */
export async function installOfflineShell() {
  offlineCache.enable();
  void warmOfflineCache(session.token());
  if (!window.isSecureContext || !('serviceWorker' in navigator) || typeof caches === 'undefined') return;
  try {
    await navigator.serviceWorker.register('/sw.js');
    // The shell's menus and dialogs load on first use: load them now so that they are kept too.
    await preloadAllParts();
    const cache = await caches.open('mostrador-shell-v1');
    const loaded = performance
      .getEntriesByType('resource')
      .map((e) => new URL(e.name))
      .filter((u) => u.origin === location.origin && u.pathname.startsWith('/assets/'))
      .map((u) => u.pathname);
    const missing: string[] = [];
    for (const p of new Set([...loaded, '/favicon.svg'])) if (!(await cache.match(p))) missing.push(p);
    await cache.addAll(missing);
    if (!(await cache.match('/app.html'))) await cache.add('/app.html');
  } catch (e) {
    console.warn('No se pudo preparar el uso sin conexión', e);
  }
}
