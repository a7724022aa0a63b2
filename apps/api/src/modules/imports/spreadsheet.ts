import { Worker } from 'node:worker_threads';
import { IMPORT_MESSAGES } from '@mostrador/shared';
import { AppError, type ErrorCode } from '../../lib/errors.js';
import type { Cell, OpenedFile, SheetInfo } from './file-reader.js';
import type { FromReader, ToReader } from './file-reader.worker.js';

export type { Cell, OpenedFile, SheetInfo } from './file-reader.js';

/*
 * Spreadsheets are read in worker threads (file-reader.ts), never on the thread that answers
 * requests: a file that costs too much stalls only its own reader. Each reader runs under a heap
 * limit and is ended when its file overruns its time; either way the upload gets a 422 and the
 * next file gets a fresh reader. Readers are kept between files (starting one costs tens of ms).
 */

// Not in the shared ErrorCode list: API-CONTRACT §4.2 names this code for file errors.
const INVALID_FILE: ErrorCode = 'INVALID_FILE';

/** 422 INVALID_FILE; `extra` carries what the wizard needs to fix it (the headers it read). */
export const fileError = (message: string, extra: Record<string, unknown> = {}) =>
  new AppError(422, INVALID_FILE, message, { errors: [{ field: 'file', message }], ...extra });
export const unreadable = () => fileError(IMPORT_MESSAGES.unreadable);
export const unsupported = () => fileError(IMPORT_MESSAGES.unsupported);

/** True when a row has at least one non-blank cell. */
export const nonEmpty = (cells: Cell[]) => cells.some((c) => c !== null && !(typeof c === 'string' && c.trim() === ''));

/** How long past a file's deadline its reader may take to stop by itself before it is ended. */
const GRACE_MS = 250;

type Row = { fila: number; cells: Cell[] };
type Inbox = { queue: FromReader[]; wake: (() => void) | null };

/** The reader's script: the compiled .js next to this file, or the .ts source through tsx. */
function startWorker(heapMb: number): Worker {
  const resourceLimits = { maxOldGenerationSizeMb: heapMb };
  const script = import.meta.url.endsWith('.ts') ? './file-reader.worker.dev.mjs' : './file-reader.worker.js';
  return new Worker(new URL(script, import.meta.url), { resourceLimits });
}

/** One reader thread: opens files and streams their rows while it is alive. */
export class SpreadsheetReader {
  private readonly worker: Worker;
  private readonly inboxes = new Map<number, Inbox>();
  private nextId = 1;
  private failure: Error | null = null;
  private timer: NodeJS.Timeout | null = null;

  constructor(heapMb: number) {
    this.worker = startWorker(heapMb);
    this.worker.unref();
    this.worker.on('message', (m: FromReader) => {
      const inbox = this.inboxes.get(m.id);
      if (!inbox) return;
      inbox.queue.push(m);
      inbox.wake?.();
    });
    this.worker.on('error', (e: Error & { code?: string }) =>
      this.end(e.code === 'ERR_WORKER_OUT_OF_MEMORY' ? fileError(IMPORT_MESSAGES.tooMuchText) : e),
    );
    this.worker.on('exit', () => this.end(unreadable()));
  }

  get alive() {
    return this.failure === null;
  }

  /** Ends the thread, failing what waits on it with `reason` (the first reason wins). */
  end(reason: Error) {
    if (this.failure) return;
    this.failure = reason;
    this.disarm();
    for (const inbox of this.inboxes.values()) inbox.wake?.();
    void this.worker.terminate();
  }

  /** Ends the thread if the file it reads is still at it `GRACE_MS` after `deadline`. */
  arm(deadline: number) {
    if (!Number.isFinite(deadline)) return;
    this.timer = setTimeout(
      () => this.end(fileError(IMPORT_MESSAGES.tooSlow)),
      Math.max(0, deadline - Date.now()) + GRACE_MS,
    );
    this.timer.unref();
  }

  disarm() {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }

  /** Forgets the files of the task that ended, keeping the thread for the next one. */
  reset() {
    if (this.alive) this.post({ t: 'reset' });
  }

  private post(m: ToReader, transfer?: ArrayBuffer[]) {
    if (this.failure) throw this.failure;
    this.worker.postMessage(m, transfer);
  }

  /** The next message for request `id`; a failure becomes the error it stands for. */
  private async receive(id: number): Promise<FromReader> {
    const inbox = this.inboxes.get(id)!;
    while (inbox.queue.length === 0) {
      if (this.failure) throw this.failure;
      await new Promise<void>((resolve) => (inbox.wake = resolve));
      inbox.wake = null;
    }
    const m = inbox.queue.shift()!;
    if (m.t !== 'failed') return m;
    if (m.problem) throw fileError(IMPORT_MESSAGES[m.problem]);
    throw new Error(`Lector de planillas: ${m.message}`);
  }

  private request(): number {
    const id = this.nextId++;
    this.inboxes.set(id, { queue: [], wake: null });
    return id;
  }

  async open(buf: Buffer, filename: string, deadline: number): Promise<OpenedFile> {
    const id = this.request();
    try {
      const copy = new Uint8Array(buf);
      this.post({ t: 'open', id, buf: copy, filename, deadline }, [copy.buffer]);
      const m = await this.receive(id);
      if (m.t !== 'opened') throw new Error('Lector de planillas: respuesta inesperada');
      return { kind: m.kind, sheets: m.sheets, rows: (sheet) => this.rows(id, sheet) };
    } finally {
      this.inboxes.delete(id);
    }
  }

  private async *rows(file: number, sheet: SheetInfo): AsyncGenerator<Row> {
    const id = this.request();
    let done = false;
    try {
      this.post({ t: 'rows', id, file, sheet });
      while (!done) {
        const m = await this.receive(id);
        if (m.t !== 'rows') throw new Error('Lector de planillas: respuesta inesperada');
        done = m.done;
        // The next batch is read while this one is used.
        if (!done) this.post({ t: 'more', id });
        yield* m.rows;
      }
    } finally {
      this.inboxes.delete(id);
      if (!done && this.alive) this.post({ t: 'stop', id });
    }
  }
}

/**
 * The readers of one app: `run` lends a task a reader for the file's time (at most as many at
 * once as tasks run: the parsing slots bound them) and takes it back, or drops it if it ended.
 */
export function spreadsheetReaders(heapMb: number) {
  const idle: SpreadsheetReader[] = [];
  const all = new Set<SpreadsheetReader>();
  return {
    async run<T>(deadline: number, task: (reader: SpreadsheetReader) => Promise<T>): Promise<T> {
      let reader = idle.pop();
      while (reader && !reader.alive) reader = idle.pop();
      if (!reader) {
        reader = new SpreadsheetReader(heapMb);
        all.add(reader);
      }
      reader.arm(deadline);
      try {
        return await task(reader);
      } finally {
        reader.disarm();
        if (reader.alive) {
          reader.reset();
          idle.push(reader);
        } else all.delete(reader);
      }
    },
    close() {
      for (const r of all) r.end(new Error('Lectores de planillas cerrados'));
      all.clear();
      idle.length = 0;
    },
  };
}
