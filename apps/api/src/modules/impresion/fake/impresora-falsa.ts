import net from 'node:net';
import { decodificar, type TrabajoLeido } from './decodificar.js';
import { decodificarZpl, ZplInvalido, type FormatoZpl } from './decodificar-zpl.js';

/*
 * A network thermal printer on loopback for tests and local use (issue 35): it listens on a raw
 * port like a real one, answers the real-time status requests (DLE EOT 1 and 4) and keeps every
 * job's bytes. It is a ZPL label printer too: it answers ~HS, and a ZPL job (one that starts with
 * ^) is read strictly and refused when malformed (kept in `rechazados`, never printed). Switches: `apagada` (nothing listens: the connection is refused), `lenta` (takes
 * the connection and never answers), `sin_papel` (reports paper end and offline, as a printer
 * whose roll ran out does).
 */

export type ModoImpresora = 'ok' | 'apagada' | 'lenta' | 'sin_papel';

export interface ImpresoraFalsa {
  host: string;
  port: number;
  /** Every job received, as bytes (status requests left out), oldest first. */
  trabajos: Uint8Array[];
  /** ZPL jobs refused as malformed (never in `trabajos`), with why. */
  rechazados: { bytes: Uint8Array; motivo: string }[];
  /** The last ZPL job read back. */
  ultimoZpl(): FormatoZpl[] | null;
  /** The last job read back. */
  ultimo(): TrabajoLeido | null;
  /** Waits until `n` jobs arrived (the route answers when the bytes left, a moment before). */
  esperar(n: number, ms?: number): Promise<void>;
  modo(m: ModoImpresora): Promise<void>;
  cerrar(): Promise<void>;
}

/**
 * A label printer's answer to ~HS: three strings between STX and ETX (paper out and pause are the
 * first string's second and third fields). Out of labels: paper out and paused.
 */
const HS = (sinPapel: boolean) =>
  `\x02030,${sinPapel ? 1 : 0},${sinPapel ? 1 : 0},0480,000,0,0,0,000,0,0,0\x03\r\n` +
  '\x02001,0,0,0,1,2,6,0,00000000,1,000\x03\r\n\x021234,0\x03\r\n';
const PIDE_HS = [0x7e, 0x48, 0x53];
/** A ZPL job starts (after blanks) with a command prefix; ESC/POS starts with ESC. */
const esZpl = (job: number[]) => {
  const k = job.findIndex((b) => b !== 0x20 && b !== 0x0a && b !== 0x0d && b !== 0x09);
  return k >= 0 && job[k] === 0x5e;
};

/** Status bytes: fixed bits 1 and 4; EOT 1 bit 3 offline; EOT 4 bits 2-3 near end, 5-6 paper end. */
const ESTADO = {
  ok: { 1: 0x12, 4: 0x12 },
  sin_papel: { 1: 0x12 | 0x08, 4: 0x12 | 0x0c | 0x60 },
} as const;

export async function iniciarImpresoraFalsa(
  o: { port?: number; host?: string; alTrabajo?: (t: Uint8Array) => void; alRechazo?: (motivo: string) => void } = {},
): Promise<ImpresoraFalsa> {
  const host = o.host ?? '127.0.0.1';
  const trabajos: Uint8Array[] = [];
  const rechazados: { bytes: Uint8Array; motivo: string }[] = [];
  const abiertos = new Set<net.Socket>();
  let modo: ModoImpresora = 'ok';
  let esperando: (() => void)[] = [];

  const server = net.createServer((socket) => {
    abiertos.add(socket);
    socket.on('close', () => abiertos.delete(socket));
    socket.on('error', () => socket.destroy());
    if (modo === 'lenta') return; // takes the connection and the bytes, answers nothing
    const job: number[] = [];
    socket.on('data', (chunk: Buffer) => {
      for (let i = 0; i < chunk.length; i++) {
        if (chunk[i] === 0x10 && chunk[i + 1] === 0x04 && (chunk[i + 2] === 1 || chunk[i + 2] === 4)) {
          const n = chunk[i + 2] as 1 | 4;
          socket.write(Uint8Array.of((modo === 'sin_papel' ? ESTADO.sin_papel : ESTADO.ok)[n]));
          i += 2;
        } else job.push(chunk[i]);
        // ~HS (a label printer's host status), wherever it arrives.
        if (job.length >= 3 && PIDE_HS.every((b, k) => job[job.length - 3 + k] === b)) {
          job.length -= 3;
          socket.write(HS(modo === 'sin_papel'));
        }
      }
    });
    socket.on('end', () => {
      if (job.length && esZpl(job)) {
        const bytes = Uint8Array.from(job);
        try {
          decodificarZpl(bytes);
        } catch (e) {
          if (!(e instanceof ZplInvalido)) throw e;
          rechazados.push({ bytes, motivo: e.message });
          o.alRechazo?.(e.message);
          socket.end();
          return;
        }
      }
      if (job.length) {
        const bytes = Uint8Array.from(job);
        trabajos.push(bytes);
        o.alTrabajo?.(bytes);
        const w = esperando;
        esperando = [];
        w.forEach((f) => f());
      }
      socket.end();
    });
  });
  const listen = (port: number) =>
    new Promise<number>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, host, () => {
        server.off('error', reject);
        resolve((server.address() as net.AddressInfo).port);
      });
    });
  const port = await listen(o.port ?? 0);
  const stop = () =>
    new Promise<void>((resolve) => {
      for (const s of abiertos) s.destroy();
      server.close(() => resolve());
    });

  return {
    host,
    port,
    trabajos,
    rechazados,
    ultimo: () => (trabajos.length ? decodificar(trabajos[trabajos.length - 1]) : null),
    ultimoZpl: () => (trabajos.length ? decodificarZpl(trabajos[trabajos.length - 1]) : null),
    async esperar(n, ms = 5000) {
      const limite = Date.now() + ms;
      while (trabajos.length < n) {
        const falta = limite - Date.now();
        if (falta <= 0) throw new Error(`La impresora falsa recibió ${trabajos.length} trabajos, se esperaban ${n}.`);
        await new Promise<void>((r) => {
          const t = setTimeout(r, falta);
          esperando.push(() => (clearTimeout(t), r()));
        });
      }
    },
    async modo(m) {
      if (m === modo) return;
      if (modo === 'apagada') await listen(port);
      if (m === 'apagada' && server.listening) await stop();
      if (m === 'lenta') for (const s of abiertos) s.destroy();
      modo = m;
    },
    async cerrar() {
      if (server.listening) await stop();
    },
  };
}
