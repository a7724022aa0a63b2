// Supplier price list (issue 17): a distributor's 20,000-row .xlsx (a title block above the
// header, keyed by barcode, cost only) previewed and applied against 20,000 products on the BUILT
// server (npm run build first), sampling the server's resident memory every 25 ms. Prints one
// JSON object (also bench/results/supplier-list.json).
//
//   Targets: preview + apply under 10 s; the server grows by less than 300 MB.
//
//   node bench/supplier-list.mjs
import ExcelJS from 'exceljs';
import { PassThrough } from 'node:stream';
import {
  cleanup,
  log,
  machine,
  ownerAndBusiness,
  post,
  round,
  startStack,
  syntheticProduct,
  watchingMemory,
  writeResult,
} from './inventory-common.mjs';

const ROWS = Number(process.env.BENCH_ROWS ?? 20_000);
const TARGET = { seconds: 10, memory_growth_mb: 300 };

async function build(rows, title) {
  const stream = new PassThrough();
  const chunks = [];
  stream.on('data', (c) => chunks.push(c));
  const wb = new ExcelJS.stream.xlsx.WorkbookWriter({ stream, useSharedStrings: true, useStyles: false });
  const ws = wb.addWorksheet('Lista');
  for (const r of title) ws.addRow(r).commit();
  for (const r of rows) ws.addRow(r).commit();
  ws.commit();
  await wb.commit();
  return Buffer.concat(chunks);
}

/** The catalogue, as the product import reads it. */
const catalogue = () =>
  build(
    Array.from({ length: ROWS }, (_, i) => {
      const p = syntheticProduct(i);
      return [p.codigo, p.nombre, p.codigo_barras, p.precio_compra, p.precio_venta, p.stock];
    }),
    [['Código', 'Artículo', 'Código de barras', 'Costo', 'Precio de venta', 'Stock']],
  );

/** The distributor's list: every cost up 8 %, keyed by EAN, under a title block. */
const distributorList = () =>
  build(
    Array.from({ length: ROWS }, (_, i) => {
      const p = syntheticProduct(i);
      return [p.codigo_barras, p.nombre.toUpperCase(), Math.round(p.precio_compra * 108) / 100];
    }),
    [['Distribuidora del Sur S.A.'], ['Lista de precios — marzo'], [], ['EAN', 'Descripción', 'Costo']],
  );

async function main() {
  log(`escribiendo los archivos (${ROWS} filas)…`);
  const [cat, list] = [await catalogue(), await distributorList()];
  const stack = await startStack('supplier-list');
  const { businessId, auth } = await ownerAndBusiness(stack.base, 'Proveedores');
  const api = `/api/v1/businesses/${businessId}`;
  log('cargando el catálogo…');
  await post(stack.base, `${api}/products/importar-excel`, auth, cat, 'catalogo.xlsx');
  const fields = { clave: 'codigo_barras' };
  log('previsualizando…');
  const preview = await watchingMemory(stack.pid, () =>
    post(stack.base, `${api}/listas-proveedor/previsualizar`, auth, list, 'distribuidora.xlsx', fields),
  );
  log(`  ${Math.round(preview.result.ms)} ms, +${preview.growth_mb} MB; aplicando…`);
  const apply = await watchingMemory(stack.pid, () =>
    post(stack.base, `${api}/listas-proveedor/aplicar`, auth, list, 'distribuidora.xlsx', fields),
  );
  log(`  ${Math.round(apply.result.ms)} ms, +${apply.growth_mb} MB`);
  const seconds = round((preview.result.ms + apply.result.ms) / 1000, 3);
  const growth = Math.max(preview.growth_mb, apply.growth_mb);
  const samePreview =
    JSON.stringify(preview.result.body.cambios) === JSON.stringify(apply.result.body.cambios) &&
    preview.result.body.productos_afectados === apply.result.body.productos_afectados;
  writeResult('supplier-list', {
    benchmark: 'supplier-list',
    rows: ROWS,
    file_bytes: list.length,
    preview: {
      seconds: round(preview.result.ms / 1000, 3),
      products_changed: preview.result.body.productos_afectados,
      unmatched: preview.result.body.sin_coincidencia_total,
      memory_mb: { baseline: preview.baseline_mb, peak: preview.peak_mb, growth: preview.growth_mb },
    },
    apply: {
      seconds: round(apply.result.ms / 1000, 3),
      products_changed: apply.result.body.productos_afectados,
      memory_mb: { baseline: apply.baseline_mb, peak: apply.peak_mb, growth: apply.growth_mb },
    },
    preview_equals_apply: samePreview,
    seconds,
    memory_growth_mb: growth,
    targets: TARGET,
    meets_targets:
      seconds < TARGET.seconds && growth < TARGET.memory_growth_mb && apply.result.body.productos_afectados === ROWS,
    machine: machine(),
  });
}

try {
  await main();
} catch (e) {
  log(`error: ${e.stack ?? e}`);
  process.exitCode = 1;
} finally {
  await cleanup();
}
