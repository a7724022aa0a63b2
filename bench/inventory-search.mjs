// Product search as you type with 50,000 products (issue 4): GET /businesses/{id}/products?q=…
// for every prefix of a few typed searches, against the same SQL run directly with pg on the same
// database (the page and the count side by side, as the server runs them). Prints one JSON object
// (also written to bench/results/inventory-search.json). Targets: p50 ≤ 20 ms through the API, and
// the API's p50 within 1.5× of the direct query's.
//
//   node bench/inventory-search.mjs        (after npm run build)
//
// Knobs: BENCH_PRODUCTS (default 50000), BENCH_ROUNDS (default 5), BENCH_LIMIT (page size, 50).
import { performance } from 'node:perf_hooks';
import {
  cleanup,
  log,
  machine,
  median,
  ownerAndBusiness,
  percentile,
  round,
  startStack,
  syntheticProduct,
  writeResult,
} from './inventory-common.mjs';

const num = (v, d) => (v !== undefined && v !== '' && Number.isFinite(Number(v)) ? Number(v) : d);
const N = num(process.env.BENCH_PRODUCTS, 50_000);
const ROUNDS = num(process.env.BENCH_ROUNDS, 5);
const LIMIT = num(process.env.BENCH_LIMIT, 50);
const TARGET = { p50_ms: 20, ratio: 1.5 };

/** What a user types, one key at a time. */
const TYPED = ['yerba playadito', 'cafe', 'dulce de leche sancor', 'noquis', 'P0123', '779100001', 'agua 2,25'];
const prefixes = TYPED.flatMap((s) => Array.from({ length: s.length }, (_, i) => s.slice(0, i + 1)).filter((p) => p.trim()));

/** The server's SQL for the list (products.service.ts listProducts), page and count. */
function directQueries(businessId, q) {
  const terms = q.trim().split(/\s+/).filter(Boolean).slice(0, 8);
  const values = [businessId, ...terms.map((w) => w.replace(/[\\%_]/g, (c) => `\\${c}`))];
  const like = terms.map((_, i) => ` AND p.busqueda LIKE '%' || f_unaccent(lower($${i + 2})) || '%'`).join('');
  return {
    page: {
      text: `SELECT p.*, c.nombre AS categoria_nombre FROM products p
               LEFT JOIN product_categories c ON c.business_id = p.business_id AND c.id = p.categoria_id
              WHERE p.business_id = $1${like}
              ORDER BY p.nombre COLLATE "es-AR-x-icu" ASC, p.id ASC LIMIT ${LIMIT} OFFSET 0`,
      values,
    },
    count: { text: `SELECT count(*)::int AS n FROM products p WHERE p.business_id = $1${like}`, values },
  };
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

  const api = async (q) => {
    const t = performance.now();
    const r = await fetch(`${stack.base}/api/v1/businesses/${businessId}/products?q=${encodeURIComponent(q)}&limit=${LIMIT}`, {
      headers: auth,
    });
    const body = await r.json();
    const ms = performance.now() - t;
    if (r.status !== 200) throw new Error(`API ${r.status} ${JSON.stringify(body)}`);
    return { ms, rows: body.length, total: Number(r.headers.get('x-total-count')) };
  };
  const direct = async (q) => {
    const { page, count } = directQueries(businessId, q);
    const t = performance.now();
    const [rows, n] = await Promise.all([stack.pool.query(page), stack.pool.query(count)]);
    return { ms: performance.now() - t, rows: rows.rowCount, total: n.rows[0].n };
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
    machine: machine(),
  };
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
