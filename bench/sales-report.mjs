// The monthly sales report and the finance summary over a large history (issues 5 and 20): 100,000
// sales (300,000 lines, each paid with one medio) and 1,000,000 finance movements in one business with
// 50,000 products, spread over the last year.
//
// 1. One request at a time: GET /businesses/{id}/ventas/reporte (the current month) and
//    GET /businesses/{id}/finanzas/resumen, each against the same SQL run directly with pg on the
//    same database (the report's five queries side by side, as the server runs them). API and
//    direct alternate request by request, so both see the same machine load; `ratio` is the API's
//    p50 over the direct p50. Targets: p50 < 100 ms through the API; report ratio ≤ 1.3, summary ≤ 1.5.
//    The report asked again with nothing changed is answered as the API kept it, after reading its
//    totals' version with the session check (decision 0029); `after_a_change` is the same pair with
//    the version grown before each API request, so the API reads the report afresh every time
//    (reported beside the target, not part of it), and `same_bytes_after_a_change` that one against
//    the SQL's rows turned into the same compressed bytes.
// 2. Under load (issue 20): 20 connections for 30 s on each of the product list (first page, 50,000
//    products), the cash flow of the month and the sales report, one route after the other.
//    Target: p99 < 150 ms on each, with no errors. Then, reported without a target, the report
//    while its totals' version grows 10 times a second, as on a busy day's counter.
//
// Prints one JSON object (also written to bench/results/sales-report.json).
//
//   node bench/sales-report.mjs        (after npm run build)
//
// Knobs: BENCH_SALES (100000), BENCH_MOVEMENTS (1000000, sales' own included), BENCH_PRODUCTS (50000),
// BENCH_ROUNDS (40), BENCH_LOAD_DURATION (s, 30; 0 skips the load phase), BENCH_LOAD_CONNECTIONS (20).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import zlib from 'node:zlib';
import autocannon from 'autocannon';
import pg from 'pg';
import { generateHistory } from './sales-history.mjs';
import { cashFlowQuery, productPageQueries, reportQueries, summaryQueries } from './sales-report-sql.mjs';
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
  writeResult,
} from './inventory-common.mjs';

const N_SALES = num(process.env.BENCH_SALES, 100_000);
const N_MOVEMENTS = num(process.env.BENCH_MOVEMENTS, 1_000_000);
const N_PRODUCTS = Math.max(500, num(process.env.BENCH_PRODUCTS, 50_000));
const ROUNDS = num(process.env.BENCH_ROUNDS, 40);
const LOAD = {
  duration: num(process.env.BENCH_LOAD_DURATION, 30),
  connections: num(process.env.BENCH_LOAD_CONNECTIONS, 20),
};
const TZ = 'America/Argentina/Buenos_Aires';
const TARGET = { p50_ms: 100, report_ratio: 1.3, summary_ratio: 1.5, load_p99_ms: 150 };

async function timed(fn) {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const stats = (times) => ({
  p50_ms: round(median(times)),
  p90_ms: round(percentile(times, 90)),
  min_ms: round(Math.min(...times)),
});

/**
 * The API and its reference one request each in turn, ROUNDS times: both see the same machine.
 * `before` runs untimed before each API request.
 */
async function measurePair(name, api, direct, before = async () => {}) {
  for (let i = 0; i < 3; i++) await Promise.all([api(), direct()]);
  const a = [];
  const d = [];
  for (let i = 0; i < ROUNDS; i++) {
    if (i % 2) d.push(await timed(direct));
    await before();
    a.push(await timed(api));
    if (!(i % 2)) d.push(await timed(direct));
  }
  const r = { api: stats(a), direct_pg: stats(d) };
  log(`  ${name}: API p50 ${r.api.p50_ms} ms, pg directo p50 ${r.direct_pg.p50_ms} ms`);
  return r;
}

const brotli = promisify(zlib.brotliCompress);
const BROTLI = {
  params: {
    [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
    [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
  },
};
const keepAlive = new http.Agent({ keepAlive: true, maxSockets: 1 });

/** One GET read as sent (brotli accepted, bytes not decoded): its size in bytes. */
function rawGet(url, auth) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent: keepAlive, headers: { ...auth, 'accept-encoding': 'br' } }, (res) => {
        let n = 0;
        res.on('data', (c) => (n += c.length));
        res.on('end', () => (res.statusCode === 200 ? resolve(n) : reject(new Error(`${url}: ${res.statusCode}`))));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** The same SQL straight through pg by LOAD.connections clients for LOAD.duration seconds. */
async function directUnderLoad(name, fn) {
  const latencies = [];
  const deadline = performance.now() + LOAD.duration * 1000;
  await Promise.all(
    Array.from({ length: LOAD.connections }, async () => {
      while (performance.now() < deadline) latencies.push(await timed(fn));
    }),
  );
  const out = {
    requests_per_s: round(latencies.length / LOAD.duration, 1),
    p50_ms: round(percentile(latencies, 50)),
    p90_ms: round(percentile(latencies, 90)),
    p99_ms: round(percentile(latencies, 99)),
    max_ms: round(latencies.reduce((a, b) => Math.max(a, b), 0)),
  };
  log(`  ${name} (pg directo): ${out.requests_per_s} consultas/s, p50 ${out.p50_ms} ms, p99 ${out.p99_ms} ms`);
  return out;
}

/**
 * LOAD.connections clients on one GET for LOAD.duration seconds (autocannon, keep-alive); with
 * `meanwhile`, that runs every `every` ms until the load ends.
 */
async function underLoad(name, url, auth, meanwhile = null, every = 100) {
  let timer = null;
  let changes = 0;
  if (meanwhile) {
    timer = setInterval(() => {
      changes++;
      meanwhile().catch((e) => log(`  cambio: ${e.message}`));
    }, every);
  }
  try {
    const out = await loadOnce(name, url, auth);
    return meanwhile ? { ...out, changes_per_s: round(changes / LOAD.duration, 1) } : out;
  } finally {
    if (timer) clearInterval(timer);
  }
}

function loadOnce(name, url, auth) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        headers: { ...auth, 'accept-encoding': 'gzip, br' },
        connections: LOAD.connections,
        duration: LOAD.duration,
      },
      (err, r) => {
        if (err) return reject(err);
        const out = {
          requests_per_s: round(r.requests.average, 1),
          p50_ms: r.latency.p50,
          p90_ms: r.latency.p90,
          p99_ms: r.latency.p99,
          max_ms: r.latency.max,
          requests: r.requests.total,
          errors: r.errors + r.timeouts + r.non2xx,
        };
        log(
          `  ${name}: ${out.requests_per_s} pedidos/s, p50 ${out.p50_ms} ms, p99 ${out.p99_ms} ms, errores ${out.errors}`,
        );
        resolve(out);
      },
    );
  });
}

async function main() {
  const { base, pool } = await startStack('sales-report');
  const { auth, businessId, userId } = await ownerAndBusiness(base, 'Reportes');
  const data = await generateHistory(pool, businessId, userId, {
    sales: N_SALES,
    movements: N_MOVEMENTS,
    products: N_PRODUCTS,
  });
  log(`datos: ${JSON.stringify(data)}`);

  const today = new Intl.DateTimeFormat('en-CA', { timeZone: TZ }).format(new Date());
  const [y, m] = [Number(today.slice(0, 4)), Number(today.slice(5, 7))];
  const pad = (n) => String(n).padStart(2, '0');
  const desde = `${y}-${pad(m)}-01`;
  const next = m === 12 ? `${y + 1}-01-01` : `${y}-${pad(m + 1)}-01`;
  const prev = m === 1 ? `${y - 1}-12-01` : `${y}-${pad(m - 1)}-01`;
  const hasta = new Date(Date.parse(`${next}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10);
  const reportUrl = `${base}/api/v1/businesses/${businessId}/ventas/reporte?fecha_desde=${desde}&fecha_hasta=${hasta}`;
  const summaryUrl = `${base}/api/v1/businesses/${businessId}/finanzas/resumen?mes=${m}&anio=${y}`;
  const get = async (url) => {
    const res = await fetch(url, { headers: auth });
    const body = await res.json();
    if (res.status !== 200) throw new Error(`${url}: ${res.status} ${JSON.stringify(body)}`);
    return body;
  };
  const report = await get(reportUrl);
  const summary = await get(summaryUrl);
  log(`reporte del mes: ${report.total_ventas} ventas, ${report.productos_mas_vendidos.length} productos`);

  log(`midiendo (${ROUNDS} pedidos secuenciales cada uno, API y directo alternados)…`);
  // The same pool as the server's (db/client.ts): 20 connections in pipeline mode.
  const direct = new pg.Pool({ connectionString: pool.options.connectionString, max: 20, pipeline: true });
  const fetchOnly = async (url) => {
    const res = await fetch(url, { headers: auth });
    await res.arrayBuffer();
    if (res.status !== 200) throw new Error(`${url}: ${res.status}`);
  };
  const load = {};
  let rep, changed, sum, same;
  // What every write of the business does to its totals' version (migration 0050), without the write.
  const bump = () =>
    pool.query(
      `INSERT INTO totales_version AS v (business_id, version) VALUES ($1, 1)
       ON CONFLICT (business_id) DO UPDATE SET version = v.version + 1`,
      [businessId],
    );
  try {
    rep = await measurePair(
      'reporte',
      () => fetchOnly(reportUrl),
      () => reportQueries(direct, businessId, desde, hasta),
    );
    // The same report right after each change to the business's totals (decision 0029): the API
    // cannot answer it again as it was and reads it afresh, as after every sale of a busy day.
    changed = await measurePair(
      'reporte tras un cambio',
      () => fetchOnly(reportUrl),
      () => reportQueries(direct, businessId, desde, hasta),
      bump,
    );
    // The same comparison with both sides producing the bytes that go on the wire (issue 20): the
    // API answer read as sent (brotli, not decoded by the client), and the direct SQL's rows turned
    // into JSON and compressed as the server does (brotli quality 1, text mode; app.ts).
    const sizes = { api: 0, direct_pg: 0 };
    same = await measurePair(
      'reporte, mismos bytes',
      async () => {
        sizes.api = await rawGet(reportUrl, auth);
      },
      async () => {
        const [days, medios, clientes, items] = await reportQueries(direct, businessId, desde, hasta);
        // Days and medios as rows turned into JSON; customers and items already JSON from PostgreSQL.
        const json = `[${JSON.stringify(days.rows)},${JSON.stringify(medios.rows)},${clientes.rows[0].json},${items.rows[0].json}]`;
        sizes.direct_pg = (await brotli(json, BROTLI)).length;
      },
      bump,
    );
    same.bytes = { ...sizes };
    sum = await measurePair(
      'resumen financiero',
      () => fetchOnly(summaryUrl),
      () => summaryQueries(direct, businessId, prev, desde, next, today),
    );
    if (LOAD.duration > 0) {
      log(`bajo carga: ${LOAD.connections} conexiones, ${LOAD.duration} s por ruta y otro tanto su SQL directo…`);
      const biz = `${base}/api/v1/businesses/${businessId}`;
      const routes = [
        // The page the web app asks for (features/products: 50 by name)…
        ['product_list', '/products?limit=50', () => productPageQueries(direct, businessId, 50)],
        // …and the contract's default page (1000 products, ~470 KB of JSON): informative, no target.
        ['product_list_default_1000', '/products', () => productPageQueries(direct, businessId, 1000)],
        ['cash_flow', `/finanzas/flujo-caja?mes=${m}&anio=${y}`, () => cashFlowQuery(direct, businessId, desde, next)],
        [
          'sales_report',
          `/ventas/reporte?fecha_desde=${desde}&fecha_hasta=${hasta}`,
          () => reportQueries(direct, businessId, desde, hasta),
        ],
      ];
      // The report again while the business's totals change 10 times a second (a busy counter):
      // most answers are read afresh.
      routes.push([
        'sales_report_changing',
        `/ventas/reporte?fecha_desde=${desde}&fecha_hasta=${hasta}`,
        () => reportQueries(direct, businessId, desde, hasta),
        bump,
      ]);
      for (const [key, path, sqlFn, meanwhile] of routes) {
        const api = await underLoad(key, `${biz}${path}`, auth, meanwhile);
        const directPg = await directUnderLoad(key, sqlFn);
        load[key] = {
          route: `GET /api/v1/businesses/{id}${path.split('?')[0]}`,
          query: path.split('?')[1] ?? '',
          ...api,
          direct_pg: directPg,
          p99_ratio: round(api.p99_ms / directPg.p99_ms, 3),
        };
      }
    }
  } finally {
    await direct.end();
  }
  const reportRatio = rep.api.p50_ms / rep.direct_pg.p50_ms;
  const summaryRatio = sum.api.p50_ms / sum.direct_pg.p50_ms;

  const result = {
    benchmark: 'sales-report',
    machine: machine(),
    data,
    month: { desde, hasta, ventas: report.total_ventas, total_ingresos: report.total_ingresos },
    report: {
      route: 'GET /api/v1/businesses/{id}/ventas/reporte',
      ...rep,
      ratio: round(reportRatio, 3),
      after_a_change: { ...changed, ratio: round(changed.api.p50_ms / changed.direct_pg.p50_ms, 3) },
      same_bytes_after_a_change: { ...same, ratio: round(same.api.p50_ms / same.direct_pg.p50_ms, 3) },
    },
    finance_summary: {
      route: 'GET /api/v1/businesses/{id}/finanzas/resumen',
      total_ingresos: summary.total_ingresos,
      ...sum,
      ratio: round(summaryRatio, 3),
    },
    under_load: { connections: LOAD.connections, duration_s: LOAD.duration, ...load },
    targets: TARGET,
  };
  result.targets_missed = [
    ...(rep.api.p50_ms < TARGET.p50_ms ? [] : ['report_p50_ms']),
    ...(reportRatio <= TARGET.report_ratio ? [] : ['report_ratio']),
    ...(sum.api.p50_ms < TARGET.p50_ms ? [] : ['summary_p50_ms']),
    ...(summaryRatio <= TARGET.summary_ratio ? [] : ['summary_ratio']),
    ...Object.entries(load)
      .filter(([k]) => k !== 'product_list_default_1000' && k !== 'sales_report_changing')
      .filter(([, r]) => !(r.p99_ms < TARGET.load_p99_ms && r.errors === 0))
      .map(([k]) => `${k}_p99_ms`),
  ];
  writeResult('sales-report', result);
}

main()
  .catch((e) => {
    log(`ERROR: ${e.stack ?? e}`);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
