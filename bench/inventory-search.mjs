// Product search as you type with 50,000 products (issue 4): GET /businesses/{id}/products?q=…
// for every prefix of a few typed searches, against the same SQL run directly with pg on the same
// database, in the same steps as the server (page and count side by side, or, with a word the
// trigram index serves, the count first under the trigram plan, then the page). Prints one JSON object
// (also written to bench/results/inventory-search.json). Targets: p50 ≤ 20 ms through the API, and
// the API's p50 within 1.5× of the direct query's. Then, reported without a target, the POS's
// request for the same prefixes (`orden=relevancia&limit=8`, decision 0050) paired with the list's.
//
//   node bench/inventory-search.mjs        (after npm run build)
//
// Knobs: BENCH_PRODUCTS (default 50000), BENCH_ROUNDS (default 5), BENCH_LIMIT (page size, 50),
// BENCH_POS_ROUNDS (default 2; 0 skips the POS pass).
import { performance } from 'node:perf_hooks';
import {
  cleanup,
  log,
  machine,
  median,
  num,
  ownerAndBusiness,
  percentile,
  round,
  startStack,
  syntheticProduct,
  writeResult,
} from './inventory-common.mjs';

const N = num(process.env.BENCH_PRODUCTS, 50_000);
const ROUNDS = num(process.env.BENCH_ROUNDS, 5);
const LIMIT = num(process.env.BENCH_LIMIT, 50);
const POS_ROUNDS = num(process.env.BENCH_POS_ROUNDS, 2);
const TARGET = { p50_ms: 20, ratio: 1.5 };

/** What a user types, one key at a time. */
const TYPED = ['yerba playadito', 'cafe', 'dulce de leche sancor', 'noquis', 'P0123', '779100001', 'agua 2,25'];
const prefixes = TYPED.flatMap((s) =>
  Array.from({ length: s.length }, (_, i) => s.slice(0, i + 1)).filter((p) => p.trim()),
);

const indexable = (w) => /[\p{L}\p{N}]{3}/u.test(w);

/** The list's columns, as the server reads them (products.queries.ts LIST_COLUMNS). */
const COLUMNS = `p.id, p.nombre, p.descripcion, p.codigo, p.codigo_barras, p.precio_compra, p.precio_venta,
  p.stock_actual, p.stock_minimo, p.controla_stock, p.unidad, p.categoria_id, p.activo, p.iva, p.creado_en,
  p.actualizado_en, p.moneda, p.precio_usd, c.nombre AS categoria_nombre`;
const CATEGORY = 'LEFT JOIN product_categories c ON c.business_id = p.business_id AND c.id = p.categoria_id';
const LISTAS = 'EXISTS (SELECT 1 FROM listas_precios WHERE business_id = $1 AND activo) AS con_listas';
const ORDER = 'ORDER BY p.nombre COLLATE "es-AR-x-icu" ASC, p.id ASC';
/** Above this many matches the server walks the name index instead of sorting (WALK_THRESHOLD). */
const WALK = 5000;

/**
 * The server's statements for the list (products.queries.ts): with no indexable word, page, count
 * and the price lists' flag in one; with one, the search's rows function (migration 0066) counted
 * and, up to WALK matches, sorted in one, and past that a walk of the name index with the count known.
 */
function directQueries(businessId, q) {
  const words = q.trim().split(/\s+/).filter(Boolean).slice(0, 8);
  const escaped = (w) => w.replace(/[\\%_]/g, (c) => `\\${c}`);
  const values = [businessId];
  const param = (v) => {
    values.push(v);
    return `$${values.length}`;
  };
  const strpos = (w) => ` AND strpos(p.busqueda, f_unaccent(lower(${param(w)}))) > 0`;
  const indexed = words.filter(indexable);
  if (!indexed.length) {
    const where = `p.business_id = $1${words.map(strpos).join('')}`;
    return {
      first: {
        text: `SELECT ${COLUMNS}, (SELECT count(*)::int FROM products p WHERE ${where}) AS total, ${LISTAS}
                 FROM products p ${CATEGORY} WHERE ${where} ${ORDER} LIMIT ${LIMIT} OFFSET 0`,
        values,
      },
    };
  }
  const fn = `buscar_productos_filas(ARRAY[${indexed.map((w) => param(escaped(w))).join(', ')}]::text[])`;
  const rest = words
    .filter((w) => !indexable(w))
    .map(strpos)
    .join('');
  const first = {
    text: `WITH found AS MATERIALIZED (SELECT * FROM ${fn} AS p WHERE p.business_id = $1${rest}),
                n AS (SELECT count(*)::int AS total FROM found)
           SELECT page.*, n.total, ${LISTAS}
             FROM n LEFT JOIN LATERAL (
               SELECT ${COLUMNS} FROM found p ${CATEGORY} WHERE n.total <= ${WALK} ${ORDER} LIMIT ${LIMIT} OFFSET 0
             ) page ON true`,
    values: [...values],
  };
  const walkValues = [businessId];
  const walkWhere = `p.business_id = $1${words
    .map((w) => {
      walkValues.push(indexable(w) ? escaped(w) : w);
      const n = `$${walkValues.length}`;
      return indexable(w)
        ? ` AND p.busqueda LIKE '%' || f_unaccent(lower(${n})) || '%'`
        : ` AND strpos(p.busqueda, f_unaccent(lower(${n}))) > 0`;
    })
    .join('')}`;
  const walk = (total) => ({
    text: `SELECT ${COLUMNS}, ${total}::int AS total, ${LISTAS}
             FROM products p ${CATEGORY} WHERE ${walkWhere} ${ORDER} LIMIT ${LIMIT} OFFSET 0`,
    values: walkValues,
  });
  return { first, walk };
}

/**
 * The same statements, one round trip each, as the owner on a connection whose session names the
 * business (the function reads the setting the server's transaction sets).
 */
async function runDirect(client, businessId, q) {
  const { first, walk } = directQueries(businessId, q);
  const rows = (await client.query(first)).rows;
  if (!walk) return { rows: rows.length, total: rows.length ? rows[0].total : 0 };
  const total = rows[0].total;
  if (rows[0].id !== null) return { rows: rows.length, total };
  if (total <= WALK) return { rows: 0, total };
  return { rows: (await client.query(walk(total))).rowCount, total };
}

async function seed(pool, businessId) {
  log(`cargando ${N} productos…`);
  const started = performance.now();
  for (let from = 0; from < N; from += 10_000) {
    const rows = [];
    for (let i = from; i < Math.min(N, from + 10_000); i++) rows.push(syntheticProduct(i));
    await pool.query(
      `INSERT INTO products (business_id, nombre, codigo, codigo_barras, precio_venta, precio_compra, stock_actual)
       SELECT $1, x.nombre, x.codigo, x.codigo_barras, x.precio_venta, x.precio_compra, x.stock
         FROM jsonb_to_recordset($2::jsonb) AS x(nombre text, codigo text, codigo_barras text, precio_venta numeric,
                                               precio_compra numeric, stock numeric)`,
      [businessId, JSON.stringify(rows)],
    );
  }
  await pool.query('ANALYZE products');
  log(`  ${Math.round(performance.now() - started)} ms`);
}

async function main() {
  const stack = await startStack('search');
  const { auth, businessId } = await ownerAndBusiness(stack.base, 'Buscador');
  await seed(stack.pool, businessId);
  const directClient = await stack.pool.connect();
  await directClient.query(`SELECT set_config('app.business_id', $1, false)`, [businessId]);

  const api = async (q, extra = `limit=${LIMIT}`) => {
    const t = performance.now();
    const r = await fetch(
      `${stack.base}/api/v1/businesses/${businessId}/products?q=${encodeURIComponent(q)}&${extra}`,
      {
        headers: auth,
      },
    );
    const body = await r.json();
    const ms = performance.now() - t;
    if (r.status !== 200) throw new Error(`API ${r.status} ${JSON.stringify(body)}`);
    return { ms, rows: body.length, total: Number(r.headers.get('x-total-count')) };
  };
  const direct = async (q) => {
    const t = performance.now();
    const r = await runDirect(directClient, businessId, q);
    return { ms: performance.now() - t, ...r };
  };

  log('calentando…');
  for (const q of prefixes) {
    await api(q);
    await direct(q);
  }
  const apiMs = [];
  const directMs = [];
  const ratios = [];
  let mismatches = 0;
  for (let r = 1; r <= ROUNDS; r++) {
    log(`ronda ${r}/${ROUNDS} (${prefixes.length} búsquedas)…`);
    for (const q of prefixes) {
      // Alternate which goes first so neither always finds the caches warmer.
      let a, d;
      if (r % 2) {
        a = await api(q);
        d = await direct(q);
      } else {
        d = await direct(q);
        a = await api(q);
      }
      apiMs.push(a.ms);
      directMs.push(d.ms);
      ratios.push(a.ms / d.ms);
      if (a.rows !== d.rows || a.total !== d.total) mismatches++;
    }
  }
  const counts = {};
  for (const q of TYPED) counts[q] = (await api(q)).total;
  // The POS's search (ranked, a page of 8) beside the list's, request by request.
  const posMs = [];
  const listMs = [];
  for (let r = 1; r <= POS_ROUNDS; r++) {
    log(`POS ${r}/${POS_ROUNDS} (${prefixes.length} búsquedas)…`);
    for (const q of prefixes) {
      listMs.push((await api(q)).ms);
      posMs.push((await api(q, 'orden=relevancia&limit=8&activo=true')).ms);
    }
  }
  const posPass = POS_ROUNDS
    ? {
        requests: posMs.length,
        api_ms: { p50: round(median(posMs)), p95: round(percentile(posMs, 95)), max: round(Math.max(...posMs)) },
        list_api_ms: { p50: round(median(listMs)), p95: round(percentile(listMs, 95)) },
        ratio_to_list_p50: round(median(posMs) / median(listMs), 3),
      }
    : null;
  const p50Api = median(apiMs);
  const p50Direct = median(directMs);
  const ratio = p50Api / p50Direct;
  const result = {
    benchmark: 'inventory-search',
    products: N,
    page_size: LIMIT,
    requests: apiMs.length,
    typed: TYPED,
    matches_per_search: counts,
    api_ms: { p50: round(p50Api), p95: round(percentile(apiMs, 95)), max: round(Math.max(...apiMs)) },
    direct_ms: { p50: round(p50Direct), p95: round(percentile(directMs, 95)), max: round(Math.max(...directMs)) },
    ratio_p50: round(ratio, 3),
    ratio_median_of_pairs: round(median(ratios), 3),
    same_results: mismatches === 0,
    targets: { api_p50_ms: TARGET.p50_ms, ratio: TARGET.ratio },
    meets_targets: p50Api <= TARGET.p50_ms && ratio <= TARGET.ratio,
    pos_relevancia: posPass,
    machine: machine(),
  };
  directClient.release();
  writeResult('inventory-search', result);
}

try {
  await main();
} catch (e) {
  log(`error: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
