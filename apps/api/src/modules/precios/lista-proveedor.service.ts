import {
  centsToDecimal,
  centsToNumber,
  LISTA_PROVEEDOR_CLAVES,
  LISTA_PROVEEDOR_MESSAGES,
  margenSobreCosto,
  precioPorMargen,
  type CambioListaProveedor,
  type ListaProveedorAplicada,
  type ListaProveedorClave,
  type ListaProveedorResult,
  type MargenOrigen,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { isUuid } from '../../lib/access.js';
import { audit } from '../../lib/audit.js';
import { conflict, invalid, notFound } from '../../lib/errors.js';
import { precioOrigen } from '../../lib/precios-origen.js';
import { dataRows, open, sheetOf, type UploadedFile } from '../imports/imports.service.js';
import { columnSamples } from '../imports/muestras.js';
import { fileError } from '../imports/spreadsheet.js';
import { toCents } from '../products/common.js';
import { loadRules, marginRule } from './margen-precedencia.js';
import { toUser } from '../products/stock.service.js';
import {
  aplicadaRows,
  insertAplicada,
  learnCodigos,
  lockAplicada,
  lockProductPrices,
  markAplicadaUndone,
  productsByKey,
  soldSince,
  supplierExists,
  writePrices,
  type ListaProductRow as ProductRow,
} from './lista-proveedor.queries.js';

/*
 * A supplier's price list (issue 17, decision 0017): the file is read by the product import's
 * reader (header row found under a title block, Argentine aliases, or the user's mapping), rows
 * are matched to products by the key the user picks, and only the columns present change: a
 * cost-only list updates costs, and the sale price follows by the margin rule. The preview and
 * the apply run the same computation, so what is previewed is what is applied.
 */

export interface ListaProveedorOptions {
  clave: ListaProveedorClave;
  hoja?: string;
  mapeo?: Record<string, string | null>;
  /** The header row chosen by the user (1-based); absent: found under the title block. */
  filaEncabezado?: number;
  /** Hundredths of % over the cost; null: each product keeps its margin (after the stored rules). */
  margen: number | null;
  excluir: Set<string>;
  proveedorId: string | null;
  /** A product whose sale price the list would lower keeps it (costs still change). */
  noBajarPrecios: boolean;
}

interface FileRow {
  fila: number;
  key: string;
  /** The key as the file has it, and the row's description (to list a row that matched nothing). */
  codigo: string;
  descripcion: string | null;
  /** The row's barcode, to learn a supplier's code (key "codigo_proveedor"). */
  barras: string | null;
  costo: number | null;
  precio: number | null;
}

const PREVIEW_MAX = 2000;
const SIN_COINCIDENCIA_MAX = 200;

/** The file's column that holds the key: a distributor's list calls its own code "Código". */
const keyField = (clave: ListaProveedorClave) => (clave === 'codigo_barras' ? 'codigo_barras' : 'codigo');
const claveLabel = (clave: ListaProveedorClave) =>
  clave === 'codigo_barras' ? 'Código de barras' : clave === 'codigo' ? 'Código' : 'Código (del proveedor)';

/** The rows of the file with their key and the values present (cents), and its columns with samples. */
async function readFile(file: UploadedFile, o: ListaProveedorOptions) {
  const f = await open(file);
  const rows: FileRow[] = [];
  let columnas: string[] = [];
  let campos = new Set<string>();
  let filaEncabezado = 0;
  let muestras: ReturnType<typeof columnSamples> | null = null;
  const field = keyField(o.clave);
  for await (const r of dataRows(f, sheetOf(f, o.hoja), o.mapeo, true, o.filaEncabezado)) {
    if (r.kind === 'header') {
      campos = new Set(r.mapping.fields.filter((x) => x !== null));
      columnas = r.mapping.columnas.map((c) => c.columna);
      filaEncabezado = r.fila;
      muestras = columnSamples(r.mapping);
      continue;
    }
    muestras?.add(r.cells);
    if (!campos.has(field)) continue;
    const key = r.datos[field];
    if (!key) continue;
    const costo = !r.parseErrors.precio_compra ? r.datos.precio_compra : null;
    const precio = !r.parseErrors.precio_venta ? r.datos.precio_venta : null;
    rows.push({
      fila: r.fila,
      key: o.clave === 'codigo' ? key.toLowerCase() : key,
      codigo: key,
      descripcion: r.datos.nombre ?? r.datos.descripcion ?? null,
      barras: r.datos.codigo_barras,
      costo: costo == null ? null : Math.round(costo * 100),
      precio: precio == null ? null : Math.round(precio * 100),
    });
  }
  const archivo = muestras?.columnas ?? [];
  // Checked once the file is read, so the column step gets its samples with the error.
  const detail = { columnas_originales: archivo.map((c) => c.columna), columnas_archivo: archivo };
  if (!campos.has(field)) throw fileError(LISTA_PROVEEDOR_MESSAGES.sinClave(claveLabel(o.clave)), detail);
  if (!campos.has('precio_compra') && !campos.has('precio_venta')) {
    throw fileError(LISTA_PROVEEDOR_MESSAGES.sinPrecios, detail);
  }
  return { rows, columnas, filaEncabezado, archivo };
}

/** The products the keys name, in one query (locked when applying). */
async function loadProducts(
  ex: Executor,
  businessId: string,
  clave: ListaProveedorClave,
  keys: string[],
  lock: boolean,
  proveedorId: string | null,
) {
  if (!keys.length) return new Map<string, ProductRow>();
  const rows = await productsByKey(businessId, clave, keys, lock, proveedorId, ex);
  return new Map(rows.map((r) => [r.key, r]));
}

/** Every change the list makes (the last row of a key, or of a product, wins, as in the product import). */
async function compute(ex: Executor, businessId: string, file: UploadedFile, o: ListaProveedorOptions, lock: boolean) {
  const { rows, columnas, filaEncabezado, archivo } = await readFile(file, o);
  const byKey = new Map<string, FileRow>();
  for (const r of rows) byKey.set(r.key, r);
  const products = await loadProducts(ex, businessId, o.clave, [...byKey.keys()], lock, o.proveedorId);
  // A supplier's code not known yet: the row's barcode finds the product, and the code is learnt.
  const aprender = new Map<string, string>();
  if (o.clave === 'codigo_proveedor') {
    const unknown = [...byKey.values()].filter((r) => !products.has(r.key) && r.barras);
    const byBarcode = await loadProducts(
      ex,
      businessId,
      'codigo_barras',
      unknown.map((r) => r.barras!),
      lock,
      null,
    );
    for (const r of unknown) {
      const p = byBarcode.get(r.barras!);
      if (p) {
        products.set(r.key, p);
        aprender.set(r.key, p.id);
      }
    }
  }
  const matched = [...byKey.entries()].filter(([key]) => products.has(key));
  const rules = await loadRules(
    ex,
    businessId,
    matched.map(([key]) => products.get(key)!.id),
    o.proveedorId,
  );
  const byProduct = new Map<string, CambioListaProveedor>();
  const sinCoincidencia: FileRow[] = [];
  const excluded = new Set<string>();
  for (const [key, r] of byKey) {
    const p = products.get(key);
    if (!p) {
      sinCoincidencia.push(r);
      continue;
    }
    if (o.excluir.has(p.id)) {
      excluded.add(p.id);
      aprender.delete(key);
      continue;
    }
    const costoAnterior = p.precio_compra === null ? null : toCents(p.precio_compra);
    const precioAnterior = toCents(p.precio_venta);
    const costoNuevo = r.costo ?? costoAnterior;
    let precioNuevo = precioAnterior;
    let regla: MargenOrigen | null = null;
    if (r.precio !== null) {
      precioNuevo = r.precio;
      regla = 'precio';
    } else if (r.costo !== null && r.costo !== costoAnterior) {
      const rule = marginRule(rules, p, o.margen);
      regla = rule.regla;
      precioNuevo = precioPorMargen(precioAnterior, costoAnterior, r.costo, rule.margen);
    }
    const precioCalculado = precioNuevo;
    const baja = precioNuevo < precioAnterior;
    if (baja && o.noBajarPrecios) precioNuevo = precioAnterior;
    byProduct.delete(p.id);
    if (costoNuevo === costoAnterior && precioNuevo === precioAnterior) continue;
    byProduct.set(p.id, {
      producto_id: p.id,
      nombre: p.nombre,
      fila: r.fila,
      costo_anterior: costoAnterior === null ? null : centsToNumber(costoAnterior),
      costo_nuevo: costoNuevo === null ? null : centsToNumber(costoNuevo),
      precio_anterior: centsToNumber(precioAnterior),
      precio_nuevo: centsToNumber(precioNuevo),
      margen: margenSobreCosto(precioNuevo, costoNuevo),
      regla,
      baja,
      precio_calculado: centsToNumber(precioCalculado),
    });
  }
  const cambios = [...byProduct.values()].sort((a, b) => a.fila - b.fila);
  sinCoincidencia.sort((a, b) => a.fila - b.fila);
  return {
    filas: rows.length,
    cambios,
    sinCoincidencia,
    excluidos: excluded.size,
    columnas,
    filaEncabezado,
    archivo,
    aprender,
  };
}

const result = (
  c: Awaited<ReturnType<typeof compute>>,
  aplicada: boolean,
  id: string | null,
  noBajar: boolean,
): ListaProveedorResult => ({
  aplicada,
  id,
  filas: c.filas,
  productos_afectados: c.cambios.length,
  excluidos: c.excluidos,
  sin_coincidencia: c.sinCoincidencia.slice(0, SIN_COINCIDENCIA_MAX).map((r) => r.fila),
  sin_coincidencia_total: c.sinCoincidencia.length,
  filas_sin_coincidencia: c.sinCoincidencia.slice(0, SIN_COINCIDENCIA_MAX).map((r) => ({
    fila: r.fila,
    codigo: r.codigo,
    descripcion: r.descripcion,
    costo: r.costo === null ? null : centsToNumber(r.costo),
  })),
  bajas: c.cambios.filter((x) => x.baja).length,
  no_bajar_precios: noBajar,
  columnas: c.columnas,
  fila_encabezado: c.filaEncabezado,
  columnas_archivo: c.archivo,
  codigos_aprendidos: c.aprender.size,
  cambios: aplicada ? c.cambios.slice(0, PREVIEW_MAX) : c.cambios.slice(0, PREVIEW_MAX),
});

/** The supplier named by the form must be the business's (422 otherwise; required to key by its codes). */
export async function checkProveedor(ex: Executor, businessId: string, o: ListaProveedorOptions) {
  if (!o.proveedorId) {
    if (o.clave === 'codigo_proveedor') throw invalid('proveedor_id', LISTA_PROVEEDOR_MESSAGES.sinProveedor);
    return;
  }
  if (!(await supplierExists(businessId, o.proveedorId, ex)))
    throw invalid('proveedor_id', LISTA_PROVEEDOR_MESSAGES.proveedorNoEncontrado);
}

export async function previewListaProveedor(db: Db, businessId: string, file: UploadedFile, o: ListaProveedorOptions) {
  return result(await compute(db, businessId, file, o, false), false, null, o.noBajarPrecios);
}

/** Applies the list in one transaction: every price and cost, its history, and the record to undo it. */
export async function applyListaProveedor(
  db: Db,
  businessId: string,
  userId: string,
  file: UploadedFile,
  o: ListaProveedorOptions,
  now: Date,
) {
  return db.transaction(async (tx) => {
    const c = await compute(tx, businessId, file, o, true);
    const row = await insertAplicada(
      businessId,
      {
        proveedorId: o.proveedorId,
        archivo: file.filename,
        clave: o.clave,
        margen: o.margen === null ? null : centsToDecimal(o.margen),
        cambios: c.cambios,
        productos: c.cambios.length,
        usuarioId: userId,
        // The business's clock, as sales use: a sale after it used the new prices.
        fecha: now,
      },
      tx,
    );
    if (c.aprender.size) await learnCodigos(businessId, o.proveedorId!, [...c.aprender], tx);
    if (c.cambios.length) {
      await precioOrigen(tx, { origen: 'lista_proveedor', userId, referenciaId: row.id });
      await writePrices(
        businessId,
        c.cambios.map((x) => ({ id: x.producto_id, costo: x.costo_nuevo, precio: x.precio_nuevo })),
        tx,
      );
    }
    await audit(tx, {
      businessId,
      userId,
      entidad: 'lista_proveedor',
      entidadId: row.id,
      accion: 'aplicar',
      despues: {
        archivo: file.filename,
        clave: o.clave,
        productos: c.cambios.length,
        excluidos: c.excluidos,
        codigos_aprendidos: c.aprender.size,
        bajas: c.cambios.filter((x) => x.baja).length,
        no_bajar_precios: o.noBajarPrecios,
      },
    });
    return result(c, true, row.id, o.noBajarPrecios);
  });
}

export async function listAplicadas(ex: Executor, businessId: string): Promise<ListaProveedorAplicada[]> {
  const rows = await aplicadaRows(businessId, ex);
  return rows.map((r) => ({
    id: r.id,
    archivo: r.archivo,
    clave: r.clave,
    proveedor_id: r.proveedorId,
    margen: r.margen === null ? null : Number(r.margen),
    productos: r.productos,
    fecha: r.fecha.toISOString(),
    deshecha_en: r.deshechaEn?.toISOString() ?? null,
    usuario: toUser(r.usuarioId, r.usuarioNombre),
  }));
}

/**
 * Undoes an applied list while no sale used its prices (a sale of any of its products since it
 * was applied: 409): each product's cost and price go back, unless they changed since.
 */
export async function undoListaProveedor(db: Db, businessId: string, userId: string, id: string) {
  return db.transaction(async (tx) => {
    const a = await lockAplicada(businessId, id, tx);
    if (!a) throw notFound(LISTA_PROVEEDOR_MESSAGES.noEncontrada);
    if (a.deshechaEn) throw conflict('INVALID_STATE', LISTA_PROVEEDOR_MESSAGES.deshecha);
    const ids = a.cambios.map((c) => c.producto_id);
    if (ids.length) {
      if (await soldSince(businessId, ids, a.fecha, tx)) throw conflict('IN_USE', LISTA_PROVEEDOR_MESSAGES.vendida);
      const current = await lockProductPrices(businessId, ids, tx);
      const now = new Map(current.map((r) => [r.id, r]));
      const back = a.cambios.filter((c) => {
        const p = now.get(c.producto_id);
        return (
          p &&
          Number(p.precio_venta) === c.precio_nuevo &&
          (p.precio_compra === null ? null : Number(p.precio_compra)) === c.costo_nuevo
        );
      });
      if (back.length) {
        await precioOrigen(tx, { origen: 'lista_proveedor', userId, referenciaId: a.id });
        await writePrices(
          businessId,
          back.map((c) => ({ id: c.producto_id, costo: c.costo_anterior, precio: c.precio_anterior })),
          tx,
        );
      }
    }
    await markAplicadaUndone(businessId, id, tx);
    await audit(tx, { businessId, userId, entidad: 'lista_proveedor', entidadId: id, accion: 'deshacer' });
    return { productos: ids.length };
  });
}

/** The multipart text fields as options (422 on a bad key or margin). */
export function optionsOf(fields: Record<string, string>, mapeo: Record<string, string | null> | undefined) {
  const clave = fields.clave as ListaProveedorClave;
  if (!(LISTA_PROVEEDOR_CLAVES as readonly string[]).includes(clave)) {
    throw invalid('clave', LISTA_PROVEEDOR_MESSAGES.clave);
  }
  let margen: number | null = null;
  const m = fields.margen?.trim().replace(',', '.');
  if (m) {
    if (!/^-?\d+(\.\d{1,2})?$/.test(m) || Number(m) <= -100 || Number(m) > 1000) {
      throw invalid('margen', LISTA_PROVEEDOR_MESSAGES.margen);
    }
    margen = Math.round(Number(m) * 100);
  }
  let excluir: string[] = [];
  if (fields.excluir) {
    try {
      const v = JSON.parse(fields.excluir) as unknown;
      if (Array.isArray(v) && v.every((x) => typeof x === 'string')) excluir = v as string[];
      else throw new Error('excluir');
    } catch {
      throw invalid('excluir', 'Debe ser una lista de identificadores de productos.');
    }
  }
  let filaEncabezado: number | undefined;
  const fila = fields.fila_encabezado?.trim();
  if (fila) {
    if (!/^\d{1,6}$/.test(fila) || Number(fila) < 1) {
      throw invalid('fila_encabezado', LISTA_PROVEEDOR_MESSAGES.filaEncabezado);
    }
    filaEncabezado = Number(fila);
  }
  const noBajar = fields.no_bajar_precios?.trim() ?? '';
  if (!['', 'true', 'false'].includes(noBajar))
    throw invalid('no_bajar_precios', LISTA_PROVEEDOR_MESSAGES.noBajarPrecios);
  const proveedorId = fields.proveedor_id?.trim() || null;
  if (proveedorId && !isUuid(proveedorId))
    throw invalid('proveedor_id', LISTA_PROVEEDOR_MESSAGES.proveedorNoEncontrado);
  return {
    clave,
    hoja: fields.hoja?.trim() || undefined,
    mapeo,
    filaEncabezado,
    margen,
    excluir: new Set(excluir),
    proveedorId,
    noBajarPrecios: noBajar === 'true',
  } satisfies ListaProveedorOptions;
}
