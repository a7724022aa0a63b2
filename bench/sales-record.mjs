// Record-sale under load (issue 5): autocannon with 20 connections on POST /api/v1/ventas/record-sale
// (unique Idempotency-Key per request, 3-line sales of random products), against the same
// statements run directly through pg, one transaction per sale, with the same concurrency, on the
// same database. Prints one JSON object (also written to bench/results/sales-record.json).
// Targets: ≥ 300 sales/s with p99 < 150 ms, and ≥ 0.75 × the direct statements' throughput (issue 20).
// Split payments (issue 14): the same sales paid in two parts (1 peso by transfer, the rest in
// cash with change) keep ≥ 0.9 × the throughput of the single-payment sales of the same round.
// Many businesses (issue 20): then the same 20 connections sell for 200 businesses at once (each
// sale for a random one of them, its own products), API and direct in turn; `many_businesses`
// reports both and their ratio (no lock is shared between businesses, so this is the spread case).
//
//   node bench/sales-record.mjs        (after npm run build)
//
// Knobs: BENCH_DURATION (s, 10), BENCH_WARMUP (s, 3), BENCH_CONNECTIONS (20), BENCH_PRODUCTS (200),
// BENCH_ROUNDS (API/direct pairs, median; 2), BENCH_BUSINESSES (200; 0 skips the many-businesses figure).
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import autocannon from 'autocannon';
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
import { directSale } from './sales-direct.mjs';

const CFG = {
  duration: num(process.env.BENCH_DURATION, 10),
  warmup: num(process.env.BENCH_WARMUP, 3),
  connections: num(process.env.BENCH_CONNECTIONS, 20),
  products: num(process.env.BENCH_PRODUCTS, 200),
  rounds: Math.max(1, num(process.env.BENCH_ROUNDS, 2)),
  businesses: num(process.env.BENCH_BUSINESSES, 200),
};
const TARGET = { sales_per_s: 300, p99_ms: 150, ratio: 0.75, split_ratio: 0.9 };

/** The payment of a bench sale: the contract's single code, or two parts of the business's medios. */
let payment = () => ({ metodo_pago: 'efectivo' });
let splitPayment = payment;

/** Three distinct random products, quantities 1–3. */
function cart(productIds) {
  const picked = new Set();
  while (picked.size < 3) picked.add(productIds[Math.floor(Math.random() * productIds.length)]);
  return [...picked].map((id) => ({ id, tipo: 'producto', cantidad: 1 + Math.floor(Math.random() * 3) }));
}

/** `target()` picks each request's business and its products (one hot business, or many). */
function runCannon(url, auth, target, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url,
        connections: CFG.connections,
        duration,
        requests: [
          {
            method: 'POST',
            setupRequest: (req) => {
              const { businessId, productIds } = target();
              return {
                ...req,
                headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
                body: JSON.stringify({ negocio_id: businessId, ...payment(), items: cart(productIds) }),
              };
            },
          },
        ],
      },
      (err, res) => (err ? reject(err) : resolve(res)),
    );
  });
}

async function apiRun(base, auth, businessId, productIds, duration, split = false, target = null) {
  payment = split ? splitPayment : () => ({ metodo_pago: 'efectivo' });
  const pick = target ?? (() => ({ businessId, productIds }));
  const r = await runCannon(`${base}/api/v1/ventas/record-sale`, auth, pick, duration);
  if (r.errors || r.timeouts || r.non2xx) {
    throw new Error(`record-sale: ${r.errors} errores, ${r.timeouts} timeouts, ${r.non2xx} respuestas no 2xx`);
  }
  log(
    `  API${split ? ' (pago dividido)' : ''}: ${Math.round(r.requests.average)} ventas/s, p50 ${r.latency.p50} ms, p99 ${r.latency.p99} ms`,
  );
  return { rps: r.requests.average, p50: r.latency.p50, p99: r.latency.p99, total: r.requests.total };
}

/** `ctx` and `productIds` may be functions: a business (and its products) per sale. */
async function directRun(pool, ctx, productIds, duration) {
  const latencies = [];
  const deadline = performance.now() + duration * 1000;
  let done = 0;
  await Promise.all(
    Array.from({ length: CFG.connections }, async () => {
      const client = await pool.connect();
      try {
        while (performance.now() < deadline) {
          const t = performance.now();
          const c = typeof ctx === 'function' ? ctx() : ctx;
          await directSale(client, c, cart(c.productIds ?? productIds));
          latencies.push(performance.now() - t);
          done += 1;
        }
      } finally {
        client.release();
      }
    }),
  );
  const rps = done / duration;
  const r = { rps, p50: round(percentile(latencies, 50)), p99: round(percentile(latencies, 99)), total: done };
  log(`  pg directo: ${Math.round(rps)} ventas/s, p50 ${r.p50} ms, p99 ${r.p99} ms`);
  return r;
}

/** CFG.businesses businesses of the same owner, each with CFG.products products: API and direct in turn. */
async function manyBusinesses(base, auth, pool, direct, userId) {
  log(`creando ${CFG.businesses} negocios…`);
  const ids = [];
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < CFG.businesses) {
        made += 1;
        const res = await fetch(`${base}/api/v1/businesses/`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ nombre: `Sucursal ${ids.length}`, tipo: 'Comercio' }),
        });
        if (res.status !== 201) throw new Error(`negocio ${res.status} ${await res.text()}`);
        ids.push((await res.json()).business_id);
      }
    }),
  );
  const { rows: prods } = await pool.query(
    `INSERT INTO products (business_id, nombre, codigo, precio_venta, precio_compra, stock_actual)
     SELECT b, 'Producto ' || g, 'P' || lpad(g::text, 5, '0'), 100 + (g % 50) * 37.5, 60 + (g % 50) * 20, 100000000
       FROM unnest($1::uuid[]) b, generate_series(1, $2) g
     RETURNING id, business_id`,
    [ids, CFG.products],
  );
  const { rows: cats } = await pool.query(
    `SELECT business_id, id FROM finance_categories WHERE business_id = ANY($1::uuid[]) AND sistema AND tipo = 'ingreso'`,
    [ids],
  );
  const all = ids.map((id) => ({
    businessId: id,
    userId,
    categoryId: cats.find((c) => c.business_id === id).id,
    productIds: prods.filter((p) => p.business_id === id).map((p) => p.id),
  }));
  const any = () => all[Math.floor(Math.random() * all.length)];
  const apiRuns = [];
  const directRuns = [];
  await apiRun(base, auth, null, null, CFG.warmup, false, any);
  for (let i = 0; i < CFG.rounds; i++) {
    log(`${CFG.businesses} negocios, ronda ${i + 1}/${CFG.rounds}`);
    if (i % 2 === 0) apiRuns.push(await apiRun(base, auth, null, null, CFG.duration, false, any));
    directRuns.push(await directRun(direct, any, null, CFG.duration));
    if (i % 2 === 1) apiRuns.push(await apiRun(base, auth, null, null, CFG.duration, false, any));
  }
  const {
    rows: [check],
  } = await pool.query(
    `SELECT sum(n)::int AS ventas, count(*)::int AS negocios_con_ventas,
            count(*) FILTER (WHERE n <> max_numero)::int AS negocios_con_huecos
       FROM (SELECT business_id, count(*) AS n, max(numero) AS max_numero FROM sales
              WHERE business_id = ANY($1::uuid[]) GROUP BY 1) t`,
    [ids],
  );
  return {
    businesses: CFG.businesses,
    products_per_business: CFG.products,
    api: {
      sales_per_s: Math.round(median(apiRuns.map((r) => r.rps))),
      p50_ms: round(median(apiRuns.map((r) => r.p50))),
      p99_ms: round(median(apiRuns.map((r) => r.p99))),
    },
    direct_pg: {
      sales_per_s: Math.round(median(directRuns.map((r) => r.rps))),
      p50_ms: round(median(directRuns.map((r) => r.p50))),
      p99_ms: round(median(directRuns.map((r) => r.p99))),
    },
    ratio: round(median(apiRuns.map((r, i) => r.rps / directRuns[i].rps)), 3),
    integrity: check,
  };
}

async function main() {
  const stack = await startStack('sales-record');
  const { base, pool } = stack;
  const { auth, businessId, userId } = await ownerAndBusiness(base, 'Caja');
  log(`creando ${CFG.products} productos…`);
  const { rows: prods } = await pool.query(
    `INSERT INTO products (business_id, nombre, codigo, precio_venta, precio_compra, stock_actual)
     SELECT $1, 'Producto ' || g, 'P' || lpad(g::text, 5, '0'), 100 + (g % 50) * 37.5, 60 + (g % 50) * 20, 100000000
       FROM generate_series(1, $2) g
     RETURNING id`,
    [businessId, CFG.products],
  );
  const productIds = prods.map((p) => p.id);
  const {
    rows: [cat],
  } = await pool.query(`SELECT id FROM finance_categories WHERE business_id = $1 AND sistema AND tipo = 'ingreso'`, [
    businessId,
  ]);
  const ctx = { businessId, userId, categoryId: cat.id };
  const medios = await (await fetch(`${base}/api/v1/businesses/${businessId}/medios-pago`, { headers: auth })).json();
  const medio = (tipo) => medios.find((m) => m.tipo === tipo).id;
  splitPayment = () => ({
    pagos: [
      { medio_pago_id: medio('transferencia'), monto: 1 },
      { medio_pago_id: medio('efectivo'), monto: 100000 },
    ],
  });

  // One sale checks the route answers, then warm both paths up.
  const first = await fetch(`${base}/api/v1/ventas/record-sale`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': randomUUID() },
    body: JSON.stringify({ negocio_id: businessId, metodo_pago: 'efectivo', items: cart(productIds) }),
  });
  if (first.status !== 201) throw new Error(`record-sale ${first.status} ${await first.text()}`);
  const direct = new (await import('pg')).default.Pool({
    connectionString: pool.options.connectionString,
    max: CFG.connections,
    pipeline: true,
  });
  try {
    log(`calentamiento ${CFG.warmup} s…`);
    await apiRun(base, auth, businessId, productIds, CFG.warmup);
    await directRun(direct, ctx, productIds, CFG.warmup);

    await apiRun(base, auth, businessId, productIds, CFG.warmup, true);
    const apiRuns = [];
    const splitRuns = [];
    const directRuns = [];
    for (let i = 0; i < CFG.rounds; i++) {
      log(`ronda ${i + 1}/${CFG.rounds}: ${CFG.connections} conexiones, ${CFG.duration} s`);
      if (i % 2 === 0) {
        apiRuns.push(await apiRun(base, auth, businessId, productIds, CFG.duration));
        splitRuns.push(await apiRun(base, auth, businessId, productIds, CFG.duration, true));
        directRuns.push(await directRun(direct, ctx, productIds, CFG.duration));
      } else {
        directRuns.push(await directRun(direct, ctx, productIds, CFG.duration));
        splitRuns.push(await apiRun(base, auth, businessId, productIds, CFG.duration, true));
        apiRuns.push(await apiRun(base, auth, businessId, productIds, CFG.duration));
      }
    }

    // The sales are all there, numbered 1..n without gaps, each with its movement.
    const {
      rows: [check],
    } = await pool.query(
      `SELECT count(*)::int AS ventas, max(numero) AS max_numero,
              (SELECT count(*)::int FROM finance_movements WHERE business_id = $1 AND origen = 'venta') AS movimientos,
              (SELECT count(*)::int FROM sale_items WHERE business_id = $1) AS lineas,
              (SELECT count(*)::int FROM sale_payments WHERE business_id = $1 AND total > 0) AS pagos
         FROM sales WHERE business_id = $1`,
      [businessId],
    );
    const ratios = apiRuns.map((r, i) => r.rps / directRuns[i].rps);
    const rps = median(apiRuns.map((r) => r.rps));
    const p99 = median(apiRuns.map((r) => r.p99));
    const ratio = median(ratios);
    const result = {
      benchmark: 'sales-record',
      machine: machine(),
      config: CFG,
      record_sale: {
        route: 'POST /api/v1/ventas/record-sale',
        sales_per_s: Math.round(rps),
        p50_ms: median(apiRuns.map((r) => r.p50)),
        p99_ms: p99,
        runs: apiRuns.map((r) => ({ ...r, rps: Math.round(r.rps) })),
      },
      split_payments: {
        sales_per_s: Math.round(median(splitRuns.map((r) => r.rps))),
        p99_ms: median(splitRuns.map((r) => r.p99)),
        ratio_to_single: round(median(splitRuns.map((r, i) => r.rps / apiRuns[i].rps)), 3),
        runs: splitRuns.map((r) => ({ ...r, rps: Math.round(r.rps) })),
      },
      direct_pg: {
        sales_per_s: Math.round(median(directRuns.map((r) => r.rps))),
        p50_ms: median(directRuns.map((r) => r.p50)),
        p99_ms: median(directRuns.map((r) => r.p99)),
        runs: directRuns.map((r) => ({ ...r, rps: Math.round(r.rps) })),
      },
      ratio: round(ratio, 3),
      ratio_per_round: ratios.map((x) => round(x, 3)),
      integrity: {
        ...check,
        numbers_without_gaps: check.ventas === Number(check.max_numero),
        one_movement_per_payment: check.pagos === check.movimientos,
        three_lines_per_sale: check.lineas === 3 * check.ventas,
      },
      targets: TARGET,
    };
    result.targets_missed = [
      ...(rps >= TARGET.sales_per_s ? [] : ['sales_per_s']),
      ...(p99 < TARGET.p99_ms ? [] : ['p99_ms']),
      ...(ratio >= TARGET.ratio ? [] : ['ratio']),
      ...(result.split_payments.ratio_to_single >= TARGET.split_ratio ? [] : ['split_ratio']),
    ];
    if (CFG.businesses > 0) {
      result.many_businesses = await manyBusinesses(base, auth, pool, direct, userId);
      if (result.many_businesses.integrity.numeros_fuera_de_rango)
        result.targets_missed.push('many_businesses_numbers');
    }
    writeResult('sales-record', result);
  } finally {
    await direct.end();
  }
}

main()
  .catch((e) => {
    log(`ERROR: ${e.stack ?? e}`);
    process.exitCode = 1;
  })
  .finally(() => cleanup());
