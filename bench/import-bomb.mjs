// One big cell (issue 31): a ~200 KB .xlsx whose single cell holds 200 MB of text, and one whose
// cell holds 60 MB (under the sheet's size limit, so it is read until the cell passes Excel's
// limit), uploaded to the BUILT server (npm run build first) while /health is asked every 10 ms.
// Prints one JSON object (also bench/results/import-bomb.json): each upload's status and time,
// and the health answers' p50/p99/max meanwhile. Target: 422 in under 2 s, health p99 < 100 ms.
//
//   node bench/import-bomb.mjs
import { performance } from 'node:perf_hooks';
import { crc32, createDeflateRaw } from 'node:zlib';
import {
  cleanup,
  log,
  machine,
  ownerAndBusiness,
  percentile,
  round,
  rssMb,
  sleep,
  startStack,
  watchingMemory,
  writeResult,
} from './inventory-common.mjs';

const TARGET = { upload_ms: 2000, health_p99_ms: 100 };
const NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';

/** A zip entry: deflated when `method` is 8; `size` and `crc` of the inflated data as given. */
function zip(entries) {
  const locals = [];
  const centrals = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const head = Buffer.alloc(30);
    head.writeUInt32LE(0x04034b50, 0);
    head.writeUInt16LE(20, 4);
    head.writeUInt16LE(e.method, 8);
    head.writeUInt32LE(e.crc, 14);
    head.writeUInt32LE(e.data.length, 18);
    head.writeUInt32LE(e.size, 22);
    head.writeUInt16LE(name.length, 26);
    locals.push(head, name, e.data);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

const stored = (name, text) => {
  const data = Buffer.from(text);
  return { name, data, method: 0, size: data.length, crc: crc32(data) };
};

/** A workbook whose one inline cell holds `mb` megabytes of "A", deflated as a stream. */
async function oneHugeCell(mb) {
  const head = Buffer.from(`<worksheet xmlns="${NS}"><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>`);
  const tail = Buffer.from('</t></is></c></row></sheetData></worksheet>');
  const chunk = Buffer.alloc(1024 * 1024, 'A');
  const deflate = createDeflateRaw({ level: 9 });
  const out = [];
  deflate.on('data', (c) => out.push(c));
  let crc = crc32(head);
  deflate.write(head);
  for (let i = 0; i < mb; i++) {
    crc = crc32(chunk, crc);
    if (!deflate.write(chunk)) await new Promise((r) => deflate.once('drain', r));
  }
  crc = crc32(tail, crc);
  deflate.write(tail);
  await new Promise((r) => deflate.end(r));
  await new Promise((r) => deflate.once('end', r));
  const sheet = {
    name: 'xl/worksheets/sheet1.xml',
    data: Buffer.concat(out),
    method: 8,
    size: head.length + mb * 1024 * 1024 + tail.length,
    crc,
  };
  return zip([
    stored('[Content_Types].xml', '<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
    stored(
      'xl/workbook.xml',
      `<workbook xmlns="${NS}" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships">` +
        '<sheets><sheet name="Hoja1" sheetId="1" r:id="rId1"/></sheets></workbook>',
    ),
    stored(
      'xl/_rels/workbook.xml.rels',
      '<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">' +
        '<Relationship Id="rId1" Target="worksheets/sheet1.xml"/></Relationships>',
    ),
    sheet,
  ]);
}

/** Uploads `file` while asking /health every 10 ms; the upload's answer and the health times. */
async function uploadWhileHealth(base, auth, businessId, file) {
  const times = [];
  let failed = 0;
  let running = true;
  const health = (async () => {
    while (running) {
      const t = performance.now();
      const r = await fetch(`${base}/api/v1/health`).catch(() => null);
      times.push(performance.now() - t);
      if (!r?.ok) failed++;
      await r?.arrayBuffer();
      await sleep(10);
    }
  })();
  const form = new FormData();
  form.append('file', new Blob([file]), 'celda.xlsx');
  const t = performance.now();
  const r = await fetch(`${base}/api/v1/businesses/${businessId}/import/upload`, {
    method: 'POST',
    headers: auth,
    body: form,
  });
  const body = await r.json();
  const ms = performance.now() - t;
  running = false;
  await health;
  return {
    status: r.status,
    detail: body.detail,
    upload_ms: round(ms),
    health: {
      answered: times.length,
      failed,
      p50_ms: round(percentile(times, 50)),
      p99_ms: round(percentile(times, 99)),
      max_ms: round(Math.max(...times)),
    },
  };
}

try {
  const stack = await startStack('bomb');
  const { auth, businessId } = await ownerAndBusiness(stack.base, 'Bomba');
  const cases = {};
  for (const mb of [200, 60]) {
    const file = await oneHugeCell(mb);
    log(`celda de ${mb} MB (${Math.round(file.length / 1024)} KB)…`);
    const run = await watchingMemory(stack.pid, () => uploadWhileHealth(stack.base, auth, businessId, file));
    cases[`cell_${mb}mb`] = { file_kb: Math.round(file.length / 1024), ...run.result, memory_growth_mb: run.growth_mb };
  }
  const ok = Object.values(cases).every(
    (c) => c.status === 422 && c.upload_ms < TARGET.upload_ms && c.health.p99_ms < TARGET.health_p99_ms,
  );
  writeResult('import-bomb', {
    machine: machine(),
    target: TARGET,
    server_rss_mb: round(rssMb(stack.pid) ?? 0),
    cases,
    ok,
  });
} finally {
  await cleanup();
}
