// Product import (issue 4): real .xlsx files written with ExcelJS, uploaded to the BUILT server
// (npm run build first). Prints one JSON object (also bench/results/inventory-import.json).
//
//   import_10k   10,000 rows through POST /products/importar-excel (one transaction), and through the
//                staged flow (upload + confirm). Target: under 5 s.
//   import_50k   50,000 rows (the maximum) the same two ways, sampling the server's resident memory
//                every 25 ms. Target: the server grows by less than 300 MB.
//
//   node bench/inventory-import.mjs
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import { performance } from 'node:perf_hooks';
import {
  cleanup,
  log,
  machine,
  ownerAndBusiness,
  post,
  round,
  rssMb,
  startStack,
  syntheticProduct,
  watchingMemory,
  writeResult,
} from './inventory-common.mjs';

const TARGET = { seconds_10k: 5, memory_growth_mb_50k: 300 };
const CATEGORIES = ['Almacén', 'Bebidas', 'Lácteos', 'Limpieza', 'Kiosco', 'Perfumería', 'Fiambrería', 'Congelados'];

/** An .xlsx with `n` product rows (shared strings, as Excel writes them), built as a stream. */
async function workbook(n) {
  const stream = new PassThrough();
  const chunks = [];
  stream.on('data', (c) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true, useStyles: false });
  const ws = wb.addWorksheet('Lista de precios');
  ws.addRow([
    'Código',
    'Artículo',
    'Código de barras',
    'Costo',
    'Precio de venta',
    'Stock',
    'Stock mínimo',
    'Rubro',
  ]).commit();
  for (let i = 0; i < n; i++) {
    const p = syntheticProduct(i);
    ws.addRow([
      p.codigo,
      p.nombre,
      p.codigo_barras,
      p.precio_compra,
      p.precio_venta,
      p.stock,
      5,
      CATEGORIES[i % CATEGORIES.length],
    ]).commit();
  }
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

async function count(base, auth, businessId) {
  const r = await fetch(`${base}/api/v1/businesses/${businessId}/products?limit=1`, { headers: auth });
  return Number(r.headers.get('x-total-count'));
}

async function measure(stack, rows, file) {
  const oneShot = await ownerAndBusiness(stack.base, `Directo${rows}`);
  log(`${rows} filas: importación directa…`);
  const direct = await watchingMemory(stack.pid, () =>
    post(
      stack.base,
      `/api/v1/businesses/${oneShot.businessId}/products/importar-excel`,
      oneShot.auth,
      file,
      `lista-${rows}.xlsx`,
    ),
  );
  log(`  ${Math.round(direct.result.ms)} ms, +${direct.growth_mb} MB`);
  const staged = await ownerAndBusiness(stack.base, `Etapas${rows}`);
  log(`${rows} filas: subida en etapas…`);
  const up = await watchingMemory(stack.pid, () =>
    post(stack.base, `/api/v1/businesses/${staged.businessId}/import/upload`, staged.auth, file, `lista-${rows}.xlsx`),
  );
  log(`  ${Math.round(up.result.ms)} ms, +${up.growth_mb} MB; confirmando…`);
  const confirm = await watchingMemory(stack.pid, async () => {
    const t = performance.now();
    const r = await fetch(`${stack.base}/api/v1/businesses/${staged.businessId}/import/confirmar`, {
      method: 'POST',
      headers: { ...staged.auth, 'content-type': 'application/json' },
      body: '{}',
    });
    const body = await r.json();
    if (r.status !== 200) throw new Error(`confirmar ${r.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms: performance.now() - t, body };
  });
  log(`  ${Math.round(confirm.result.ms)} ms, +${confirm.growth_mb} MB`);
  return {
    rows,
    file_bytes: file.length,
    one_shot: {
      seconds: round(direct.result.ms / 1000, 3),
      created: direct.result.body.creados,
      errors: direct.result.body.errores.length,
      stored: await count(stack.base, oneShot.auth, oneShot.businessId),
      memory_mb: { baseline: direct.baseline_mb, peak: direct.peak_mb, growth: direct.growth_mb },
    },
    staged: {
      upload_seconds: round(up.result.ms / 1000, 3),
      confirm_seconds: round(confirm.result.ms / 1000, 3),
      seconds: round((up.result.ms + confirm.result.ms) / 1000, 3),
      staged_valid: up.result.body.validos,
      created: confirm.result.body.creados,
      stored: await count(stack.base, staged.auth, staged.businessId),
      memory_mb: {
        upload_growth: up.growth_mb,
        confirm_growth: confirm.growth_mb,
        peak: Math.max(up.peak_mb, confirm.peak_mb),
      },
    },
  };
}

async function main() {
  log('escribiendo los archivos…');
  const [file10k, file50k] = [await workbook(10_000), await workbook(50_000)];
  const stack = await startStack('import');
  const startRss = rssMb(stack.pid);
  const r10 = await measure(stack, 10_000, file10k);
  const r50 = await measure(stack, 50_000, file50k);
  const worst10 = Math.max(r10.one_shot.seconds, r10.staged.seconds);
  const growth50 = Math.max(
    r50.one_shot.memory_mb.growth,
    r50.staged.memory_mb.upload_growth,
    r50.staged.memory_mb.confirm_growth,
  );
  const result = {
    benchmark: 'inventory-import',
    server_rss_at_start_mb: round(startRss),
    import_10k: r10,
    import_50k: r50,
    targets: { seconds_10k: TARGET.seconds_10k, memory_growth_mb_50k: TARGET.memory_growth_mb_50k },
    worst_seconds_10k: worst10,
    worst_memory_growth_mb_50k: growth50,
    // Everything above, cumulatively: the server's highest RSS against its RSS when it started.
    peak_rss_mb: Math.max(r10.staged.memory_mb.peak, r50.one_shot.memory_mb.peak, r50.staged.memory_mb.peak),
    growth_since_start_mb: round(
      Math.max(r10.staged.memory_mb.peak, r50.one_shot.memory_mb.peak, r50.staged.memory_mb.peak) - startRss,
    ),
    meets_targets:
      worst10 < TARGET.seconds_10k &&
      growth50 < TARGET.memory_growth_mb_50k &&
      r10.one_shot.stored === 10_000 &&
      r50.one_shot.stored === 50_000 &&
      r50.staged.stored === 50_000,
    machine: machine(),
  };
  writeResult('inventory-import', result);
}

try {
  await main();
} catch (e) {
  log(`error: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
