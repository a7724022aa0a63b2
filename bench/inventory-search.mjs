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
const POS_ROUNDS = num(process.env.BENCH_POS_ROUNDS, 2);
const TARGET = { p50_ms: 20, ratio: 1.5 };

/** What a user types, one key at a time. */
const TYPED = ['yerba playadito', 'cafe', 'dulce de leche sancor', 'noquis', 'P0123', '779100001', 'agua 2,25'];
const prefixes = TYPED.flatMap((s) =>
  Array.from({ length: s.length }, (_, i) => s.slice(0, i + 1)).filter((p) => p.trim()),
);

const indexable = (w) => /[\p{L}\p{N}]{3}/u.test(w);

/** The server's SQL for the list (products.service.ts listProducts), page and count. */
function directQueries(businessId, q) {
  const terms = q.trim().split(/\s+/).filter(Boolean).slice(0, 8);
  const values = [businessId];
  const like = terms
    .map((w) => {
      if (!indexable(w)) {
        values.push(w);
        return ` AND strpos(p.busqueda, f_unaccent(lower($${values.length}))) > 0`;
      }
      values.push(w.replace(/[\\%_]/g, (c) => `\\${c}`));
      return ` AND p.busqueda LIKE '%' || f_unaccent(lower($${values.length})) || '%'`;
    })
    .join('');
  return {
    indexable: terms.some(indexable),
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

/** The same steps as the server: with an indexable word, count first under the trigram plan. */
async function runDirect(pool, businessId, q) {
  const { indexable: useIndex, page, count } = directQueries(businessId, q);
  if (!useIndex) {
    const [rows, n] = await Promise.all([pool.query(page), pool.query(count)]);
    return { rows: rows.rowCount, total: n.rows[0].n };
  }
  const planned = async (query) => {
    const c = await pool.connect();
    try {
      await c.query('BEGIN');
      await c.query("SELECT set_config('enable_seqscan', 'off', true), set_config('enable_indexscan', 'off', true)");
      const r = await c.query(query);
      await c.query('COMMIT');
      return r;
    } finally {
      c.release();
    }
  };
  const total = (await planned(count)).rows[0].n;
  const rows = total === 0 ? { rowCount: 0 } : total > 5000 ? await pool.query(page) : await planned(page);
  return { rows: rows.rowCount, total };
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
    const r = await runDirect(stack.pool, businessId, q);
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
