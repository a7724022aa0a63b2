import { sql } from 'drizzle-orm';
import {
  centsToDecimal,
  centsToNumber,
  LISTA_MESSAGES,
  LISTA_MINORISTA_NOMBRE,
  milliToDecimal,
  milliToNumber,
  precioDeLista,
  formaCiclo,
  type ListaPrecios,
  type ListaPreciosOutput,
  type ListaPreciosUpdate,
  type ListaRegla,
  type PrecioEnLista,
  type PrecioFijo,
  type PrecioFijoRegla,
  type PrecioHistorial,
  type PreciosFijosOutput,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { toCents, toMilli } from '../products/common.js';
import { toUser } from '../products/stock.service.js';
import {
  childLista,
  deleteListaRow,
  deletePreciosFijos,
  insertLista,
  knownProductIds,
  listaRows,
  listaRowsByName,
  listaRowsWithCounts,
  precioFijoItemRows,
  precioFijoRows,
  precioHistorialRows,
  updateListaRow,
  upsertPreciosFijos,
  type ListaColumns,
  type ListaRow,
} from './precios.queries.js';

/** The constraint a PostgreSQL error names (drizzle wraps it in `cause`). */
export function pgConstraint(e: unknown): string | undefined {
  const err = ((e as { cause?: unknown })?.cause ?? e) as { constraint?: string };
  return err?.constraint;
}

const num = (v: string | null) => (v === null ? null : Number(v));

/* ---------------------------------------------------------------- price history */

/** A product's price history, newest first. */
export async function listPrecioHistorial(
  ex: Executor,
  businessId: string,
  productId: string,
  page: { limit: number; offset: number },
) {
  const { rows, total } = await precioHistorialRows(businessId, productId, page, ex);
  return {
    total,
    rows: rows.map(({ h, usuarioNombre }): PrecioHistorial => ({
      id: h.id,
      fecha: h.fecha.toISOString(),
      origen: h.origen,
      precio_anterior: num(h.precioAnterior),
      precio_nuevo: num(h.precioNuevo),
      costo_anterior: num(h.costoAnterior),
      costo_nuevo: num(h.costoNuevo),
      referencia_id: h.referenciaId,
      usuario: toUser(h.usuarioId, usuarioNombre),
    })),
  };
}

/* ---------------------------------------------------------------- price lists */

const toRegla = (r: ListaRow): ListaRegla => ({
  id: r.id,
  tipo: r.tipo,
  baseListaId: r.baseListaId,
  porcentaje: r.porcentaje === null ? null : toCents(r.porcentaje),
  cantidadMinima: r.cantidadMinima === null ? null : toMilli(r.cantidadMinima),
  activo: r.activo,
});

/** Every list of the business as the rules read them. */
export async function loadReglas(ex: Executor, businessId: string): Promise<Map<string, ListaRegla>> {
  const rows = await listaRows(businessId, ex);
  return new Map(rows.map((r) => [r.id, toRegla(r)]));
}

export async function listListas(ex: Executor, businessId: string): Promise<ListaPrecios[]> {
  const rows = await listaRowsWithCounts(businessId, ex);
  return rows.map(({ l, productos, clientes }) => toLista(l, productos, clientes));
}

function toLista(l: ListaRow, productos: number, clientes: number): ListaPrecios {
  return {
    id: l.id,
    nombre: l.nombre,
    tipo: l.tipo,
    base_lista_id: l.baseListaId,
    porcentaje: num(l.porcentaje),
    cantidad_minima: num(l.cantidadMinima),
    activo: l.activo,
    productos_con_precio: productos,
    clientes,
    creado_en: l.creadoEn.toISOString(),
    actualizado_en: l.actualizadoEn.toISOString(),
  };
}

export async function getLista(ex: Executor, businessId: string, id: string): Promise<ListaPrecios> {
  const found = (await listListas(ex, businessId)).find((l) => l.id === id);
  if (!found) throw notFound(LISTA_MESSAGES.notFound);
  return found;
}

const snapshot = (l: ListaPrecios) => ({
  nombre: l.nombre,
  tipo: l.tipo,
  base_lista_id: l.base_lista_id,
  porcentaje: l.porcentaje,
  cantidad_minima: l.cantidad_minima,
  activo: l.activo,
});
type Snapshot = ReturnType<typeof snapshot>;

const duplicateOf = (e: unknown, nombre: string | undefined) =>
  isUniqueViolation(e, 'listas_precios_nombre_key')
    ? conflict('DUPLICATE', LISTA_MESSAGES.duplicate(nombre ?? ''))
    : null;

/** Only one list at a time changes a business's lists, so two edits cannot close a loop between them. */
const lockListas = (tx: Executor, businessId: string) =>
  tx.execute(sql`SELECT pg_advisory_xact_lock(hashtext('listas_precios'), hashtext(${businessId}))`);

/** The shape rules of a list as a whole: name, percentage by type, base in the business and no loop. */
function checkLista(s: Snapshot, id: string | null, reglas: Map<string, ListaRegla>) {
  if (s.nombre.trim().toLowerCase() === LISTA_MINORISTA_NOMBRE.toLowerCase()) {
    throw invalid('nombre', LISTA_MESSAGES.reservedName);
  }
  if (s.tipo === 'porcentaje' && s.porcentaje === null) throw invalid('porcentaje', LISTA_MESSAGES.percentRequired);
  if (s.base_lista_id !== null) {
    if (!reglas.has(s.base_lista_id)) throw invalid('base_lista_id', LISTA_MESSAGES.notFound);
    if (id !== null && formaCiclo(reglas, id, s.base_lista_id)) throw invalid('base_lista_id', LISTA_MESSAGES.cycle);
    if (id === null && formaCiclo(reglas, '', s.base_lista_id)) throw invalid('base_lista_id', LISTA_MESSAGES.cycle);
  }
}

function listaColumns(s: Partial<Snapshot>): ListaColumns {
  return {
    nombre: s.nombre,
    tipo: s.tipo,
    baseListaId: s.base_lista_id,
    porcentaje: s.porcentaje === undefined ? undefined : s.porcentaje === null ? null : String(s.porcentaje),
    cantidadMinima:
      s.cantidad_minima === undefined ? undefined : s.cantidad_minima === null ? null : String(s.cantidad_minima),
    activo: s.activo,
  };
}

export async function createLista(db: Db, businessId: string, userId: string, input: ListaPreciosOutput) {
  const values: Snapshot = {
    nombre: input.nombre,
    tipo: input.tipo,
    base_lista_id: input.base_lista_id ?? null,
    porcentaje: input.tipo === 'porcentaje' && input.porcentaje != null ? centsToNumber(input.porcentaje) : null,
    cantidad_minima: input.cantidad_minima == null ? null : milliToNumber(input.cantidad_minima),
    activo: input.activo ?? true,
  };
  try {
    return await db.transaction(async (tx) => {
      await lockListas(tx, businessId);
      checkLista(values, null, await loadReglas(tx, businessId));
      const row = await insertLista(businessId, listaColumns(values), tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'lista_precios',
        entidadId: row.id,
        accion: 'crear',
        despues: values,
      });
      return getLista(tx, businessId, row.id);
    });
  } catch (e) {
    throw duplicateOf(e, input.nombre) ?? e;
  }
}

export async function updateLista(db: Db, businessId: string, userId: string, id: string, patch: ListaPreciosUpdate) {
  try {
    return await db.transaction(async (tx) => {
      await lockListas(tx, businessId);
      const before = await getLista(tx, businessId, id);
      const given: Partial<Snapshot> = {};
      if (patch.nombre !== undefined) given.nombre = patch.nombre;
      if (patch.tipo !== undefined) given.tipo = patch.tipo;
      if (patch.base_lista_id !== undefined) given.base_lista_id = patch.base_lista_id;
      if (patch.porcentaje !== undefined) {
        given.porcentaje = patch.porcentaje === null ? null : centsToNumber(patch.porcentaje);
      }
      if (patch.cantidad_minima !== undefined) {
        given.cantidad_minima = patch.cantidad_minima === null ? null : milliToNumber(patch.cantidad_minima);
      }
      if (patch.activo !== undefined) given.activo = patch.activo;
      const merged = { ...snapshot(before), ...given };
      if (merged.tipo === 'fija') merged.porcentaje = null;
      if (merged.tipo === 'fija' && before.porcentaje !== null) given.porcentaje = null;
      checkLista(merged, id, await loadReglas(tx, businessId));
      const changes = diff(snapshot(before), { ...given, porcentaje: merged.porcentaje });
      if (!changes.changed) return before;
      await updateListaRow(businessId, id, listaColumns(changes.despues as Partial<Snapshot>), tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'lista_precios',
        entidadId: id,
        accion: 'actualizar',
        antes: changes.antes,
        despues: changes.despues,
      });
      return getLista(tx, businessId, id);
    });
  } catch (e) {
    throw duplicateOf(e, patch.nombre) ?? e;
  }
}

/** Refused while another list is computed on it; its customers go back to Minorista. */
export async function deleteLista(db: Db, businessId: string, userId: string, id: string) {
  await db.transaction(async (tx) => {
    await lockListas(tx, businessId);
    const before = await getLista(tx, businessId, id);
    if (await childLista(businessId, id, tx)) throw conflict('IN_USE', LISTA_MESSAGES.inUse);
    await deleteListaRow(businessId, id, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'lista_precios',
      entidadId: id,
      accion: 'eliminar',
      antes: { ...snapshot(before), productos_con_precio: before.productos_con_precio },
    });
  });
}

export async function listPreciosFijos(ex: Executor, businessId: string, listaId: string): Promise<PrecioFijo[]> {
  await getLista(ex, businessId, listaId);
  const rows = await precioFijoRows(businessId, listaId, ex);
  return rows.map(({ i, nombre }) => ({
    producto_id: i.productoId,
    producto_nombre: nombre,
    precio: Number(i.precio),
    cantidad_minima: num(i.cantidadMinima),
  }));
}

/** PUT …/precios: sets (or, with `precio: null`, removes) products' fixed prices in a fixed-price list. */
export async function setPreciosFijos(
  db: Db,
  businessId: string,
  userId: string,
  listaId: string,
  input: PreciosFijosOutput,
) {
  return db.transaction(async (tx) => {
    const lista = await getLista(tx, businessId, listaId);
    if (lista.tipo !== 'fija') throw invalid('precios', LISTA_MESSAGES.fixedOnly);
    const ids = [...new Set(input.precios.map((p) => p.producto_id))];
    const known = await knownProductIds(businessId, ids, tx);
    const missing = input.precios.findIndex((p) => !known.has(p.producto_id));
    if (missing >= 0) throw invalid(`precios.${missing}.producto_id`, LISTA_MESSAGES.productNotInBusiness);
    // The last row of a product wins, as a spreadsheet pasted twice would expect.
    const last = new Map(input.precios.map((p) => [p.producto_id, p]));
    const set = [...last.values()].filter((p) => p.precio !== null);
    const remove = [...last.values()].filter((p) => p.precio === null).map((p) => p.producto_id);
    if (set.length) {
      await upsertPreciosFijos(
        businessId,
        set.map((p) => ({
          listaId,
          productoId: p.producto_id,
          precio: centsToDecimal(p.precio!),
          cantidadMinima: p.cantidad_minima == null ? null : milliToDecimal(p.cantidad_minima),
        })),
        tx,
      );
    }
    let eliminados = 0;
    if (remove.length) eliminados = await deletePreciosFijos(businessId, listaId, remove, tx);
    await audit(tx, {
      businessId,
      userId,
      entidad: 'lista_precios',
      entidadId: listaId,
      accion: 'actualizar',
      despues: {
        precios: set.map((p) => ({
          producto_id: p.producto_id,
          precio: centsToNumber(p.precio!),
          cantidad_minima: p.cantidad_minima == null ? null : milliToNumber(p.cantidad_minima),
        })),
        eliminados: remove,
      },
    });
    return { actualizados: set.length, eliminados };
  });
}

/* ---------------------------------------------------------------- prices in every list */

/** Fixed prices of these products in any list, by list then product. */
export async function loadFijos(ex: Executor, businessId: string, productIds: string[]) {
  const fijos = new Map<string, PrecioFijoRegla>();
  if (!productIds.length) return fijos;
  const rows = await precioFijoItemRows(businessId, productIds, ex);
  for (const r of rows) fijos.set(`${r.listaId}:${r.productoId}`, fijoOf(r.precio, r.cantidadMinima));
  return fijos;
}

export const fijoOf = (precio: string, cantidadMinima: string | null): PrecioFijoRegla => ({
  precio: toCents(precio),
  cantidadMinima: cantidadMinima === null ? null : toMilli(cantidadMinima),
});

/** Large enough that every minimum quantity is met: a list's price as a catalogue shows it. */
const ANY_QUANTITY = Number.MAX_SAFE_INTEGER;

/**
 * Each active list's price of each product (as the products list and export show them), with the
 * minimum quantity that price needs. Empty when the business has no lists.
 */
export async function preciosEnListas(
  ex: Executor,
  businessId: string,
  items: { id: string; precio_venta: number }[],
  reglas?: Map<string, ListaRegla>,
  nombres?: Map<string, string>,
): Promise<Map<string, PrecioEnLista[]>> {
  const out = new Map<string, PrecioEnLista[]>();
  let listas = reglas;
  let names = nombres;
  if (!listas || !names) {
    const rows = await listaRows(businessId, ex);
    listas = new Map(rows.map((r) => [r.id, toRegla(r)]));
    names = new Map(rows.map((r) => [r.id, r.nombre]));
  }
  const active = [...listas.values()].filter((l) => l.activo !== false);
  if (!active.length || !items.length) return out;
  active.sort((a, b) => names.get(a.id)!.localeCompare(names.get(b.id)!, 'es-AR'));
  const fijos = await loadFijos(
    ex,
    businessId,
    items.map((p) => p.id),
  );
  for (const p of items) {
    const precioBase = Math.round(p.precio_venta * 100);
    out.set(
      p.id,
      active.map((l) => ({
        lista_id: l.id,
        nombre: names.get(l.id)!,
        precio: centsToNumber(
          precioDeLista({
            precioBase,
            listaId: l.id,
            cantidad: ANY_QUANTITY,
            listas: listas,
            fijo: (lid) => fijos.get(`${lid}:${p.id}`),
          }),
        ),
        cantidad_minima: minimoDe(l, fijos.get(`${l.id}:${p.id}`)),
      })),
    );
  }
  return out;
}

/** The quantity from which a list's price applies (null: any). */
function minimoDe(l: ListaRegla, fijo: PrecioFijoRegla | undefined): number | null {
  const mins = [l.cantidadMinima, l.tipo === 'fija' ? (fijo?.cantidadMinima ?? null) : null].filter(
    (m): m is number => m !== null,
  );
  return mins.length ? milliToNumber(Math.max(...mins)) : null;
}

/** The names of the business's active lists, in order (export columns). */
export async function activeListas(ex: Executor, businessId: string) {
  const rows = await listaRowsByName(businessId, ex);
  return {
    reglas: new Map(rows.map((r) => [r.id, toRegla(r)])),
    nombres: new Map(rows.map((r) => [r.id, r.nombre])),
    activas: rows.filter((r) => r.activo).map((r) => ({ id: r.id, nombre: r.nombre })),
  };
}
