import { sql, type SQL } from 'drizzle-orm';
import type { EtiquetasQuery } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';

/*
 * Labels' statements (decision 0044: the business first, the executor last).
 */

export interface ProductoEtiqueta {
  id: string;
  nombre: string;
  codigo: string | null;
  codigo_barras: string | null;
  precio_venta: string;
  iva: string;
  unidad: string;
  contenido: string | null;
  contenido_unidad: string | null;
}

/**
 * The active products a label sheet takes: the ones chosen, of a category, and/or whose sale price
 * changed (by origin, by one change such as an applied supplier list, since a moment), by name.
 */
export async function productosParaEtiquetas(businessId: string, q: EtiquetasQuery, ex: Executor) {
  const where: SQL[] = [sql`p.business_id = ${businessId}`, sql`p.activo`];
  if (q.productos?.length) where.push(sql`p.id = ANY(${`{${q.productos.join(',')}}`}::uuid[])`);
  if (q.categoria_id) where.push(sql`p.categoria_id = ${q.categoria_id}`);
  if (q.origen || q.referencia_id || q.desde) {
    const h: SQL[] = [
      sql`h.business_id = p.business_id`,
      sql`h.producto_id = p.id`,
      sql`h.precio_nuevo IS DISTINCT FROM h.precio_anterior`,
    ];
    if (q.origen) h.push(sql`h.origen = ${q.origen}`);
    if (q.referencia_id) h.push(sql`h.referencia_id = ${q.referencia_id}`);
    if (q.desde) h.push(sql`h.fecha >= ${q.desde}::timestamptz`);
    where.push(sql`EXISTS (SELECT 1 FROM precios_historial h WHERE ${sql.join(h, sql` AND `)})`);
  }
  const { rows } = await ex.execute(
    sql`SELECT p.id, p.nombre, p.codigo, p.codigo_barras, p.precio_venta::text, p.iva, p.unidad,
               p.contenido::text, p.contenido_unidad
          FROM products p
         WHERE ${sql.join(where, sql` AND `)}
         ORDER BY p.nombre COLLATE "es-AR-x-icu", p.id
         LIMIT 5001`,
  );
  return rows as unknown as ProductoEtiqueta[];
}

/** The shop's IVA condition in its fiscal setup (null: not set up). */
export async function condicionIva(businessId: string, ex: Executor) {
  const { rows } = await ex.execute(
    sql`SELECT condicion_iva FROM facturacion_config WHERE business_id = ${businessId}`,
  );
  return (rows[0]?.condicion_iva as string | undefined) ?? null;
}

/**
 * The products chosen that have no barcode yet, locked, and the highest internal item number the
 * business used (one assignment at a time per business, held to commit).
 */
export async function lockSinCodigo(businessId: string, ids: string[], ex: Executor) {
  await ex.execute(sql`SELECT pg_advisory_xact_lock(hashtext('codigos-internos:' || ${businessId}))`);
  const list = `{${ids.join(',')}}`;
  const [found, sin, max] = await Promise.all([
    ex.execute(
      sql`SELECT count(*)::int AS n FROM products WHERE business_id = ${businessId} AND id = ANY(${list}::uuid[])`,
    ),
    ex.execute(
      sql`SELECT id, nombre FROM products
           WHERE business_id = ${businessId} AND id = ANY(${list}::uuid[]) AND codigo_barras IS NULL
           ORDER BY nombre COLLATE "es-AR-x-icu", id FOR UPDATE`,
    ),
    ex.execute(
      sql`SELECT coalesce(max(substring(codigo_barras from 3 for 10)::bigint), 0)::text AS n
            FROM products WHERE business_id = ${businessId} AND codigo_barras ~ '^04[0-9]{11}$'`,
    ),
  ]);
  return {
    encontrados: found.rows[0].n as number,
    sinCodigo: sin.rows as { id: string; nombre: string }[],
    ultimo: Number(max.rows[0].n),
  };
}

export async function setCodigosBarras(businessId: string, codigos: { id: string; codigo: string }[], ex: Executor) {
  if (!codigos.length) return;
  const values = sql.join(
    codigos.map((c) => sql`(${c.id}::uuid, ${c.codigo})`),
    sql`, `,
  );
  await ex.execute(
    sql`UPDATE products SET codigo_barras = v.codigo, actualizado_en = now()
          FROM (VALUES ${values}) AS v(id, codigo)
         WHERE products.business_id = ${businessId} AND products.id = v.id`,
  );
}
