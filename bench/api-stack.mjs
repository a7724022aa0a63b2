// What bench/scale-out.mjs and bench/failover.mjs share: built API instances behind nginx on
// loopback, the owner with many businesses and their products, sales through nginx retried with
// the same Idempotency-Key, and the integrity of the sales in SQL afterwards.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { closeSync, openSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { ROOT, sleep } from './inventory-common.mjs';

const MAIN = path.join(ROOT, 'apps/api/dist/main.js');
export const EMBEDDED = path.join(ROOT, 'apps/api/dist/db/embedded.js');
const asRoot = process.getuid?.() === 0;

/** Functions run in reverse order at the end (or on SIGINT/SIGTERM). */
export function cleanups() {
  const fns = [];
  const run = async () => {
    for (const fn of fns.splice(0).reverse()) {
      try {
        await fn();
      } catch (e) {
        process.stderr.write(`[bench] limpieza: ${e}\n`);
      }
    }
  };
  for (const sig of ['SIGINT', 'SIGTERM']) process.on(sig, () => void run().finally(() => process.exit(130)));
  return { push: (fn) => fns.push(fn), run };
}

export function binary(name, pkg = name) {
  for (const dir of ['/usr/sbin', '/usr/bin', '/usr/local/sbin', '/usr/local/bin']) {
    try {
      execFileSync('test', ['-x', path.join(dir, name)]);
      return path.join(dir, name);
    } catch {
      // next
    }
  }
  throw new Error(`${name} no está instalado (apt-get install -y ${pkg})`);
}

/* ------------------------------------------------------------------ instances and nginx */

export async function startInstance(i, port, env, dir) {
  const logFile = path.join(dir, `api-${i}.log`);
  const fd = openSync(logFile, 'a');
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    env: { ...env, PORT: String(port), DATA_DIR: path.join(dir, `data-${i}`) },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  const inst = { i, port, child, exited: false };
  child.on('exit', () => (inst.exited = true));
  return inst;
}

export async function healthy(inst, timeoutMs = 120_000) {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    if (inst.exited) throw new Error(`la instancia ${inst.i} terminó al arrancar`);
    const ok = await fetch(`http://127.0.0.1:${inst.port}/api/v1/health`, { signal: AbortSignal.timeout(2_000) })
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) return;
    await sleep(100);
  }
  throw new Error(`la instancia ${inst.i} no arrancó`);
}

export async function stopInstance(inst) {
  if (inst.exited) return;
  const done = new Promise((r) => inst.child.once('exit', r));
  inst.child.kill('SIGTERM');
  await Promise.race([done, sleep(10_000)]);
  if (!inst.exited) inst.child.kill('SIGKILL');
}

export function nginxConf(dir, port, upstreams) {
  // No retry of a POST on another instance once sent (nginx's default: non_idempotent off): the
  // client retries with its Idempotency-Key. A refused connection (a dead instance) goes to the next.
  return `${asRoot ? 'user root;\n' : ''}worker_processes 1;
daemon on;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream mostrador {
${upstreams.map((p) => `    server 127.0.0.1:${p} max_fails=1 fail_timeout=2s;`).join('\n')}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    client_max_body_size 2m;
    location / {
      proxy_pass http://mostrador;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
      proxy_set_header X-Forwarded-Proto $scheme;
      proxy_next_upstream error timeout;
      proxy_connect_timeout 1s;
      proxy_read_timeout 30s;
    }
  }
}
`;
}

/* ------------------------------------------------------------------ the owner and the businesses */

/**
 * One owner with `count` businesses, made through the API at `base`; `products` products each,
 * straight in SQL (fast) with `pool` (the owner's). Returns the auth header, the user id, the
 * businesses (with products, byId and the finance category) and the expected state.
 */
export async function ownerWithBusinesses(base, pool, count, products) {
  const email = `escala.${Date.now()}@ejemplo.com`;
  const password = 'clave-segura-123';
  const signup = await fetch(`${base}/api/v1/auth/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, nombre: 'Escala', apellido: 'Bench' }),
  });
  if (signup.status !== 201) throw new Error(`signup ${signup.status} ${await signup.text()}`);
  const login = await fetch(`${base}/api/v1/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ username: email, password }).toString(),
  }).then((r) => r.json());
  const auth = { authorization: `Bearer ${login.access_token}` };
  const businesses = [];
  let made = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (made < count) {
        const k = made++;
        const res = await fetch(`${base}/api/v1/businesses/`, {
          method: 'POST',
          headers: { ...auth, 'content-type': 'application/json' },
          body: JSON.stringify({ nombre: `Negocio ${k + 1}`, tipo: 'Comercio' }),
        });
        if (res.status !== 201) throw new Error(`negocio ${res.status} ${await res.text()}`);
        businesses.push({ id: (await res.json()).business_id });
      }
    }),
  );
  const state = { stock: new Map(), money: new Map(), count: new Map(), acks: [], direct: 0 };
  const { rows: prods } = await pool.query(
    `INSERT INTO products (business_id, nombre, codigo, precio_venta, precio_compra, stock_actual)
     SELECT b, 'Producto ' || g, 'P' || g, 100 + g * 37.5, 60 + g * 20, 1000000
       FROM unnest($1::uuid[]) b, generate_series(1, $2) g
     RETURNING id, business_id, (precio_venta * 100)::int AS cents, stock_actual::float8 AS stock`,
    [businesses.map((b) => b.id), products],
  );
  const { rows: cats } = await pool.query(
    `SELECT business_id, id FROM finance_categories WHERE business_id = ANY($1::uuid[]) AND sistema AND tipo = 'ingreso'`,
    [businesses.map((b) => b.id)],
  );
  const catOf = new Map(cats.map((c) => [c.business_id, c.id]));
  for (const b of businesses) {
    b.products = prods.filter((p) => p.business_id === b.id);
    b.byId = new Map(b.products.map((p) => [p.id, p]));
    b.categoryId = catOf.get(b.id);
    state.money.set(b.id, 0);
    state.count.set(b.id, 0);
  }
  for (const p of prods) state.stock.set(p.id, p.stock);
  return { auth, userId: login.user.id, businesses, state };
}

/* ------------------------------------------------------------------ the load */

/** Three distinct products of a business, quantities 1–3. */
export function cart(biz) {
  const picked = new Set();
  while (picked.size < 3) picked.add(biz.products[Math.floor(Math.random() * biz.products.length)]);
  return [...picked].map((p) => ({ id: p.id, tipo: 'producto', cantidad: 1 + Math.floor(Math.random() * 3) }));
}

/** What a sale does to the expected state: stock per product and money per business (cents). */
export function tally(state, biz, items) {
  let total = 0;
  for (const it of items) {
    const p = biz.byId.get(it.id);
    state.stock.set(it.id, state.stock.get(it.id) - it.cantidad);
    total += p.cents * it.cantidad;
  }
  state.money.set(biz.id, state.money.get(biz.id) + total);
  state.count.set(biz.id, state.count.get(biz.id) + 1);
  return total;
}

const RETRYABLE = new Set([0, 408, 429, 500, 502, 503, 504]);

/** Counters of one run of sales. */
export const newStats = () => ({
  latencies: [],
  done: [],
  started: [],
  retries: 0,
  refused: [],
  gaveUp: 0,
  wrongTotals: 0,
  /** Failed attempts by status (0: no answer) and the longest one, in ms. */
  failures: {},
  slowestFailureMs: 0,
});

/** One sale through nginx, retried with the same key until acknowledged. */
export async function apiSale(base, auth, biz, state, stats) {
  const key = randomUUID();
  const items = cart(biz);
  const body = JSON.stringify({ negocio_id: biz.id, metodo_pago: 'efectivo', items });
  const t0 = performance.now();
  for (let attempt = 0; attempt < 200; attempt++) {
    if (attempt) {
      stats.retries += 1;
      await sleep(Math.min(50 * attempt, 500));
    }
    let status = 0;
    let json = null;
    const ta = performance.now();
    try {
      const res = await fetch(`${base}/api/v1/ventas/record-sale`, {
        method: 'POST',
        headers: { ...auth, 'content-type': 'application/json', 'idempotency-key': key },
        body,
        signal: AbortSignal.timeout(15_000),
      });
      status = res.status;
      json = await res.json().catch(() => null);
    } catch {
      // No answer (the instance died under the request, or nginx found none): retry, same key.
    }
    if (status === 201 || status === 200) {
      const expected = tally(state, biz, items);
      state.acks.push({ business: biz.id, key, id: json.id, numero: json.numero, total: json.total });
      if (Math.round(json.total * 100) !== expected) stats.wrongTotals += 1;
      const end = performance.now();
      stats.latencies.push(end - t0);
      stats.done.push(end);
      stats.started.push(t0);
      return;
    }
    stats.failures[status] = (stats.failures[status] ?? 0) + 1;
    stats.slowestFailureMs = Math.max(stats.slowestFailureMs, performance.now() - ta);
    if (!RETRYABLE.has(status)) {
      stats.refused.push({ status, body: json });
      return;
    }
  }
  stats.gaveUp += 1;
}

/* ------------------------------------------------------------------ integrity */

/**
 * In SQL, against what the clients were told: every acknowledged sale stored once, numbers 1..n
 * per business, stock, sales totals and finance income exact, one written key per sale.
 */
export async function integrity(pool, businesses, state) {
  const ids = businesses.map((b) => b.id);
  const q = async (text, values) => (await pool.query(text, values)).rows;
  const ackedIds = state.acks.map((a) => a.id);
  const [{ n: inDb }] = await q('SELECT count(*)::int AS n FROM sales WHERE business_id = ANY($1::uuid[])', [ids]);
  const [{ n: ackedInDb }] = await q('SELECT count(DISTINCT id)::int AS n FROM sales WHERE id = ANY($1::uuid[])', [
    ackedIds,
  ]);
  const distinctAcks = new Set(ackedIds).size;
  const expected = state.acks.length + state.direct;
  const perBusiness = await q(
    `SELECT business_id AS id, count(*)::int AS n, count(DISTINCT numero)::int AS d, min(numero)::int AS lo,
            max(numero)::int AS hi, sum(total * 100)::bigint AS cents
       FROM sales WHERE business_id = ANY($1::uuid[]) GROUP BY business_id`,
    [ids],
  );
  let gaps = 0;
  let moneyMismatches = 0;
  let countMismatches = 0;
  for (const r of perBusiness) {
    if (r.lo !== 1 || r.hi !== r.n || r.d !== r.n) gaps += 1;
    if (Number(r.cents) !== state.money.get(r.id)) moneyMismatches += 1;
    if (r.n !== state.count.get(r.id)) countMismatches += 1;
  }
  const finance = await q(
    `SELECT business_id AS id, sum(monto * 100)::bigint AS cents FROM finance_movements
      WHERE business_id = ANY($1::uuid[]) AND origen = 'venta' AND NOT anulado GROUP BY business_id`,
    [ids],
  );
  for (const r of finance) if (Number(r.cents) !== state.money.get(r.id)) moneyMismatches += 1;
  const stock = await q('SELECT id, stock_actual::float8 AS s FROM products WHERE business_id = ANY($1::uuid[])', [
    ids,
  ]);
  const stockMismatches = stock.filter((p) => p.s !== state.stock.get(p.id)).length;
  const [{ n: keys }] = await q(
    'SELECT count(*)::int AS n FROM sale_idempotency_keys WHERE business_id = ANY($1::uuid[]) AND status = 201',
    [ids],
  );
  return {
    acknowledged: state.acks.length,
    direct: state.direct,
    sales_in_db: inDb,
    lost: state.acks.length - ackedInDb,
    duplicated: inDb - expected + (state.acks.length - distinctAcks),
    businesses_with_gaps: gaps,
    businesses_count_mismatch: countMismatches,
    stock_mismatches: stockMismatches,
    money_mismatches: moneyMismatches,
    keys_written: keys,
  };
}

/** Whether every integrity count is zero and every sale has its key. */
export const intact = (c) =>
  c.lost === 0 &&
  c.duplicated === 0 &&
  c.businesses_with_gaps === 0 &&
  c.businesses_count_mismatch === 0 &&
  c.stock_mismatches === 0 &&
  c.money_mismatches === 0 &&
  c.keys_written === c.acknowledged + c.direct;
