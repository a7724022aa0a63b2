import { parentPort } from 'node:worker_threads';
import { FileProblem, openSpreadsheet, type Cell, type OpenedFile, type SheetInfo } from './file-reader.js';

/*
 * The thread that reads spreadsheets (spreadsheet.ts starts it, under a heap limit, and ends it
 * when a file overruns its time or memory). It keeps the files it opened until told to forget
 * them and sends a sheet's rows in batches, one batch ahead of what the main thread has asked.
 */

export type ToReader =
  | { t: 'open'; id: number; buf: Uint8Array; filename: string; deadline: number }
  | { t: 'rows'; id: number; file: number; sheet: SheetInfo }
  | { t: 'more'; id: number }
  | { t: 'stop'; id: number }
  | { t: 'reset' };

export type FromReader =
  | { t: 'opened'; id: number; kind: OpenedFile['kind']; sheets: SheetInfo[] }
  | { t: 'rows'; id: number; rows: { fila: number; cells: Cell[] }[]; done: boolean }
  | { t: 'failed'; id: number; problem?: FileProblem['kind']; message?: string };

const BATCH = 500;
const port = parentPort!;
const files = new Map<number, OpenedFile>();
const streams = new Map<number, AsyncGenerator<{ fila: number; cells: Cell[] }>>();
const send = (m: FromReader) => port.postMessage(m);

async function pump(id: number) {
  const rows = streams.get(id);
  if (!rows) return;
  const batch: { fila: number; cells: Cell[] }[] = [];
  while (batch.length < BATCH) {
    const next = await rows.next();
    if (next.done) {
      streams.delete(id);
      return send({ t: 'rows', id, rows: batch, done: true });
    }
    batch.push(next.value);
  }
  send({ t: 'rows', id, rows: batch, done: false });
}

async function handle(m: ToReader) {
  switch (m.t) {
    case 'open': {
      const buf = Buffer.from(m.buf.buffer, m.buf.byteOffset, m.buf.byteLength);
      const f = await openSpreadsheet(buf, m.filename, m.deadline);
      files.set(m.id, f);
      return send({ t: 'opened', id: m.id, kind: f.kind, sheets: f.sheets });
    }
    case 'rows': {
      const f = files.get(m.file);
      if (!f) throw new Error('archivo no abierto');
      streams.set(m.id, f.rows(m.sheet));
      return pump(m.id);
    }
    case 'more':
      return pump(m.id);
    case 'stop': {
      const rows = streams.get(m.id);
      streams.delete(m.id);
      await rows?.return(undefined);
      return;
    }
    case 'reset': {
      const open = [...streams.values()];
      streams.clear();
      files.clear();
      await Promise.all(open.map((r) => r.return(undefined)));
    }
  }
}

port.on('message', (m: ToReader) => {
  handle(m).catch((e: unknown) => {
    if (!('id' in m)) return;
    streams.delete(m.id);
    if (e instanceof FileProblem) send({ t: 'failed', id: m.id, problem: e.kind });
    else send({ t: 'failed', id: m.id, message: e instanceof Error ? (e.stack ?? e.message) : String(e) });
  });
});
