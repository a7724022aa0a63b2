// The offline POS's catalogue (issue 18): GET /businesses/{id}/pos/catalogo with 50,000 products.
// Measures the first (full) download as a device gets it (brotli, as browsers ask; gzip too), in
// bytes on the wire and time until the JSON is parsed, and the incremental refresh (?desde=cursor)
// after 100 products changed. Prints one JSON object (also bench/results/pos-catalogue.json).
// Targets on the 2-core machine: first download < 5 s and < 5 MB compressed; incremental < 200 ms.
//
//   node bench/pos-catalogue.mjs        (after npm run build)
//
// Knobs: BENCH_PRODUCTS (default 50000), BENCH_ROUNDS (default 5), BENCH_CHANGES (default 100).
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import {
  cleanup,
  log,
  machine,
  median,
  num,
  ownerAndBusiness,
  round,
  startStack,
  syntheticProduct,
  writeResult,
} from './inventory-common.mjs';

const N = num(process.env.BENCH_PRODUCTS, 50_000);
const ROUNDS = num(process.env.BENCH_ROUNDS, 5);
const CHANGES = num(process.env.BENCH_CHANGES, 100);
const TARGET = { first_ms: 5000, first_bytes: 5_000_000, incremental_ms: 200 };

async function seed(pool, businessId) {
  log(`cargando ${N} productos…`);
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
}

/** One GET as a browser makes it: raw bytes on the wire, then decompressed and parsed. */
function get(url, headers, encoding) {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = http.get(url, { headers: { ...headers, 'accept-encoding': encoding } }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => {
        const raw = Buffer.concat(chunks);
        const enc = res.headers['content-encoding'];
        const text = (enc === 'br' ? brotliDecompressSync(raw) : enc === 'gzip' ? gunzipSync(raw) : raw).toString(
          'utf8',
        );
        const body = JSON.parse(text);
        if (res.statusCode !== 200) return reject(new Error(`${res.statusCode} ${text.slice(0, 300)}`));
        resolve({ ms: performance.now() - started, bytes: raw.length, json_bytes: Buffer.byteLength(text), enc, body });
      });
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

async function main() {
  const stack = await startStack('pos-catalogue');
  const { auth, businessId } = await ownerAndBusiness(stack.base, 'Catalogo');
  await seed(stack.pool, businessId);
  const url = `${stack.base}/api/v1/businesses/${businessId}/pos/catalogo`;

  log('primera descarga…');
  await get(url, auth, 'br, gzip'); // warm-up
  const firsts = [];
  for (let i = 0; i < ROUNDS; i++) firsts.push(await get(url, auth, 'br, gzip'));
  const gz = await get(url, auth, 'gzip');
  const first = firsts[firsts.length - 1];
  if (first.body.productos.length !== N) throw new Error(`productos: ${first.body.productos.length} ≠ ${N}`);

  log('refrescos incrementales…');
  const ids = (await stack.pool.query('SELECT id FROM products WHERE business_id = $1 ORDER BY id', [businessId])).rows;
  let cursor = first.body.cursor;
  const incs = [];
  for (let r = 0; r < ROUNDS + 1; r++) {
    const changed = ids.slice(r * CHANGES, (r + 1) * CHANGES).map((x) => x.id);
    await stack.pool.query(
      'UPDATE products SET precio_venta = precio_venta + 1, actualizado_en = now() WHERE business_id = $1 AND id = ANY($2::uuid[])',
      [businessId, changed],
    );
    const inc = await get(`${url}?desde=${cursor}`, auth, 'br, gzip');
    cursor = inc.body.cursor;
    if (r > 0) incs.push({ ms: inc.ms, bytes: inc.bytes, productos: inc.body.productos.length }); // first is warm-up
  }

  const firstMs = median(firsts.map((f) => f.ms));
  const incMs = median(incs.map((i) => i.ms));
  const result = {
    products: N,
    rounds: ROUNDS,
    first_download: {
      ms_p50: round(firstMs),
      ms_max: round(Math.max(...firsts.map((f) => f.ms))),
      bytes_br: first.bytes,
      bytes_gzip: gz.bytes,
      bytes_json: first.json_bytes,
      encoding: first.enc,
    },
    incremental_after_changes: {
      changed_products: CHANGES,
      ms_p50: round(incMs),
      ms_max: round(Math.max(...incs.map((i) => i.ms))),
      bytes_br_p50: median(incs.map((i) => i.bytes)),
      products_returned: incs.map((i) => i.productos),
    },
    targets: TARGET,
    meets_targets:
      firstMs < TARGET.first_ms &&
      first.bytes < TARGET.first_bytes &&
      gz.bytes < TARGET.first_bytes &&
      incMs < TARGET.incremental_ms,
    machine: machine(),
  };
  writeResult('pos-catalogue', result);
}

try {
  await main();
} catch (e) {
  log(`error: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
