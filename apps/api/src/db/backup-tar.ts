import { closeSync, openSync, readSync } from 'node:fs';

/*
 * The smallest tar (ustar) the backups need: regular files and directories, names under 255
 * characters. Written and read here so that a backup needs nothing installed (decision 0055).
 */

const BLOCK = 512;

function octal(n: number, width: number): string {
  return n.toString(8).padStart(width - 1, '0') + '\0';
}

/** A 512-byte ustar header for a file ('0') or a directory ('5'). */
export function tarHeader(name: string, size: number, type: '0' | '5', mode: number, mtime: Date): Buffer {
  const h = Buffer.alloc(BLOCK);
  let prefix = '';
  let base = name;
  if (Buffer.byteLength(name) > 100) {
    const cut = name.lastIndexOf('/', 155);
    prefix = name.slice(0, cut);
    base = name.slice(cut + 1);
    if (cut <= 0 || Buffer.byteLength(base) > 100 || Buffer.byteLength(prefix) > 155)
      throw new Error(`Nombre demasiado largo para la copia: ${name}`);
  }
  h.write(base, 0, 100, 'utf8');
  h.write(octal(mode & 0o7777, 8), 100, 'ascii');
  h.write(octal(0, 8), 108, 'ascii');
  h.write(octal(0, 8), 116, 'ascii');
  h.write(octal(size, 12), 124, 'ascii');
  h.write(octal(Math.floor(mtime.getTime() / 1000), 12), 136, 'ascii');
  h.write('        ', 148, 'ascii');
  h.write(type, 156, 'ascii');
  h.write('ustar\0', 257, 'ascii');
  h.write('00', 263, 'ascii');
  h.write(prefix, 345, 155, 'utf8');
  let sum = 0;
  for (const b of h) sum += b;
  h.write(octal(sum, 7) + ' ', 148, 'ascii');
  return h;
}

const padding = (size: number) => Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);

/** A file's entry from memory. */
export function* tarBuffer(name: string, data: Buffer, mode = 0o600): Generator<Buffer> {
  yield tarHeader(name, data.length, '0', mode, new Date());
  yield data;
  yield padding(data.length);
}

/**
 * A file's entry read from disk: `size` bytes (its size when listed). A file that shrank meanwhile
 * (PostgreSQL truncating a relation) is padded with zeros: WAL replay rewrites those pages.
 */
export function* tarFile(name: string, file: string, size: number, mode: number, mtime: Date): Generator<Buffer> {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return; // dropped meanwhile: WAL replay recreates it
    throw e;
  }
  try {
    yield tarHeader(name, size, '0', mode, mtime);
    let done = 0;
    while (done < size) {
      const chunk = Buffer.alloc(Math.min(1 << 20, size - done));
      const n = readSync(fd, chunk, 0, chunk.length, done);
      if (n === 0) {
        yield Buffer.alloc(size - done);
        done = size;
        break;
      }
      yield chunk.subarray(0, n);
      done += n;
    }
    yield padding(size);
  } finally {
    closeSync(fd);
  }
}

export const tarDir = (name: string, mode = 0o700) =>
  tarHeader(name.endsWith('/') ? name : `${name}/`, 0, '5', mode, new Date());

export const tarEnd = () => Buffer.alloc(2 * BLOCK);

export interface TarEntry {
  name: string;
  type: 'file' | 'dir';
  mode: number;
  data: Buffer;
}

/** Reads a tar from its bytes as they come (gunzipped); calls `onEntry` for each entry. */
export async function readTar(source: AsyncIterable<Buffer>, onEntry: (e: TarEntry) => Promise<void> | void) {
  let buf: Buffer = Buffer.alloc(0);
  let current: { name: string; type: 'file' | 'dir'; mode: number; size: number; parts: Buffer[]; got: number } | null =
    null;
  let ended = false;
  const str = (b: Buffer) => b.toString('utf8').replace(/\0.*$/s, '');
  for await (const chunk of source) {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    for (;;) {
      if (ended) break;
      if (current) {
        const want = current.size - current.got;
        const take = Math.min(want, buf.length);
        if (take) {
          current.parts.push(buf.subarray(0, take));
          current.got += take;
          buf = buf.subarray(take);
        }
        if (current.got < current.size) break;
        const pad = (BLOCK - (current.size % BLOCK)) % BLOCK;
        if (buf.length < pad) break;
        buf = buf.subarray(pad);
        await onEntry({
          name: current.name,
          type: current.type,
          mode: current.mode,
          data: Buffer.concat(current.parts),
        });
        current = null;
      }
      if (buf.length < BLOCK) break;
      const h = buf.subarray(0, BLOCK);
      buf = buf.subarray(BLOCK);
      if (h.every((b) => b === 0)) {
        ended = true;
        break;
      }
      let sum = 0;
      for (let i = 0; i < BLOCK; i++) sum += i >= 148 && i < 156 ? 32 : h[i];
      if (sum !== parseInt(str(h.subarray(148, 156)).trim(), 8)) throw new Error('La copia está dañada (tar).');
      const prefix = str(h.subarray(345, 500));
      const name = (prefix ? `${prefix}/` : '') + str(h.subarray(0, 100));
      const typeflag = String.fromCharCode(h[156]);
      const size = parseInt(str(h.subarray(124, 136)).trim() || '0', 8);
      const mode = parseInt(str(h.subarray(100, 108)).trim() || '600', 8);
      current = {
        name: name.replace(/\/$/, ''),
        type: typeflag === '5' ? 'dir' : 'file',
        mode,
        size: typeflag === '5' ? 0 : size,
        parts: [],
        got: 0,
      };
    }
  }
  if (!ended) throw new Error('La copia está incompleta: el archivo termina antes de tiempo.');
}
