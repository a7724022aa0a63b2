import { StringDecoder } from 'node:string_decoder';
import { createInflateRaw } from 'node:zlib';

/*
 * A minimal, defensive reader of the ZIP container of an .xlsx held in memory (uploads are at
 * most 10 MB). It exists so that nothing is ever inflated blindly:
 *
 * - the central directory is parsed and checked against the local headers, which must tile the
 *   file with no gaps (no hidden entries that a streaming unzipper would find);
 * - each entry's declared uncompressed size must be at most MAX_ENTRY_UNCOMPRESSED and all of
 *   them must add up to at most MAX_TOTAL_UNCOMPRESSED, so an honest zip bomb is refused before
 *   a single byte is inflated;
 * - every entry is inflated as a stream with a byte cap at its declared size, so a zip that lies
 *   about its sizes is stopped as soon as it inflates past what it declared.
 *
 * The inflated XML is handed to ExcelJS's streaming readers as text chunks.
 */

export const MAX_TOTAL_UNCOMPRESSED = 256 * 1024 * 1024;
/** One sheet of 50,000 rows is a few MB of XML; 64 MB leaves room for wide ones. */
export const MAX_ENTRY_UNCOMPRESSED = 64 * 1024 * 1024;
const MAX_ENTRIES = 5000;

export class ZipError extends Error {}
/** An entry that declares more than MAX_ENTRY_UNCOMPRESSED: a file too big to read, not a broken one. */
export class ZipEntryTooLarge extends ZipError {}

export interface ZipEntry {
  name: string;
  method: number;
  compressedSize: number;
  uncompressedSize: number;
  dataStart: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_EOCD = 0x06054b50;
const SIG_DESCRIPTOR = 0x08074b50;

export const isZip = (buf: Buffer) => buf.length >= 4 && buf.readUInt32LE(0) === SIG_LOCAL;

function findEocd(buf: Buffer): number {
  const min = Math.max(0, buf.length - 22 - 0xffff);
  for (let i = buf.length - 22; i >= min; i--) {
    if (buf.readUInt32LE(i) === SIG_EOCD) return i;
  }
  throw new ZipError('sin directorio central');
}

/** Parses and validates the archive; throws ZipError for anything unusual. */
export function readZip(buf: Buffer, maxTotal = MAX_TOTAL_UNCOMPRESSED): Map<string, ZipEntry> {
  if (buf.length < 22) throw new ZipError('demasiado corto');
  const eocd = findEocd(buf);
  const count = buf.readUInt16LE(eocd + 10);
  const cdSize = buf.readUInt32LE(eocd + 12);
  const cdOffset = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || cdOffset === 0xffffffff) throw new ZipError('zip64 no soportado');
  if (count === 0 || count > MAX_ENTRIES) throw new ZipError('cantidad de entradas');
  if (cdOffset + cdSize > eocd) throw new ZipError('directorio fuera de rango');

  const entries = new Map<string, ZipEntry>();
  const spans: { start: number; end: number }[] = [];
  let total = 0;
  let p = cdOffset;
  for (let n = 0; n < count; n++) {
    if (p + 46 > eocd || buf.readUInt32LE(p) !== SIG_CENTRAL) throw new ZipError('entrada central');
    const flags = buf.readUInt16LE(p + 8);
    const method = buf.readUInt16LE(p + 10);
    const compressedSize = buf.readUInt32LE(p + 20);
    const uncompressedSize = buf.readUInt32LE(p + 24);
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const localOffset = buf.readUInt32LE(p + 42);
    const name = buf.toString('utf8', p + 46, p + 46 + nameLen);
    p += 46 + nameLen + extraLen + commentLen;

    if (flags & 0x1) throw new ZipError('cifrado');
    if (method !== 0 && method !== 8) throw new ZipError('método');
    if (compressedSize === 0xffffffff || uncompressedSize === 0xffffffff) throw new ZipError('zip64');
    if (method === 0 && compressedSize !== uncompressedSize) throw new ZipError('tamaños');
    total += uncompressedSize;
    if (total > maxTotal) throw new ZipError('demasiado grande al descomprimir');
    if (uncompressedSize > MAX_ENTRY_UNCOMPRESSED) throw new ZipEntryTooLarge('entrada demasiado grande');

    if (localOffset + 30 > cdOffset || buf.readUInt32LE(localOffset) !== SIG_LOCAL)
      throw new ZipError('cabecera local');
    const lNameLen = buf.readUInt16LE(localOffset + 26);
    const lExtraLen = buf.readUInt16LE(localOffset + 28);
    const lMethod = buf.readUInt16LE(localOffset + 8);
    const lFlags = buf.readUInt16LE(localOffset + 6);
    if (lMethod !== method) throw new ZipError('método local');
    const dataStart = localOffset + 30 + lNameLen + lExtraLen;
    let end = dataStart + compressedSize;
    if (end > cdOffset) throw new ZipError('datos fuera de rango');
    if (lFlags & 0x8) {
      // Data descriptor after the data: with or without its signature, 32-bit sizes.
      end += end + 4 <= cdOffset && buf.readUInt32LE(end) === SIG_DESCRIPTOR ? 16 : 12;
      if (end > cdOffset) throw new ZipError('descriptor');
    } else if (
      buf.readUInt32LE(localOffset + 18) !== compressedSize ||
      buf.readUInt32LE(localOffset + 22) !== uncompressedSize
    ) {
      throw new ZipError('tamaños locales');
    }
    if (entries.has(name)) throw new ZipError('entrada repetida');
    entries.set(name, { name, method, compressedSize, uncompressedSize, dataStart });
    spans.push({ start: localOffset, end });
  }
  // The entries must cover the file from the start to the central directory without gaps.
  spans.sort((a, b) => a.start - b.start);
  let at = 0;
  for (const s of spans) {
    if (s.start !== at) throw new ZipError('huecos entre entradas');
    at = s.end;
  }
  if (at !== cdOffset) throw new ZipError('datos sin directorio');
  return entries;
}

/**
 * The entry's content as UTF-8 text chunks, inflated as a stream and stopped with a ZipError
 * as soon as it goes past its declared size (or `cap`, if smaller).
 */
export async function* entryText(buf: Buffer, e: ZipEntry, cap = e.uncompressedSize): AsyncGenerator<string> {
  const limit = Math.min(cap, e.uncompressedSize);
  const decoder = new StringDecoder('utf8');
  const data = buf.subarray(e.dataStart, e.dataStart + e.compressedSize);
  if (e.method === 0) {
    if (data.length > limit) throw new ZipError('excede el tamaño declarado');
    for (let i = 0; i < data.length; i += 64 * 1024) yield decoder.write(data.subarray(i, i + 64 * 1024));
    const rest = decoder.end();
    if (rest) yield rest;
    return;
  }
  const inflate = createInflateRaw({ chunkSize: 64 * 1024 });
  let seen = 0;
  inflate.end(data);
  try {
    for await (const chunk of inflate as AsyncIterable<Buffer>) {
      seen += chunk.length;
      if (seen > limit) throw new ZipError('excede el tamaño declarado');
      yield decoder.write(chunk);
    }
  } catch (e) {
    if (e instanceof ZipError) throw e;
    throw new ZipError('datos dañados');
  } finally {
    inflate.destroy();
  }
  if (seen !== e.uncompressedSize) throw new ZipError('tamaño distinto del declarado');
  const rest = decoder.end();
  if (rest) yield rest;
}

/** A small entry (workbook, relationships) as one string. */
export async function entryString(buf: Buffer, e: ZipEntry, cap: number): Promise<string> {
  if (e.uncompressedSize > cap) throw new ZipError('entrada demasiado grande');
  let s = '';
  for await (const chunk of entryText(buf, e, cap)) s += chunk;
  return s;
}
