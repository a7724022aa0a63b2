import net from 'node:net';
import { leerEstado, PEDIDO_ESTADO } from './escpos.js';

/*
 * A printer on the shop's network, on its raw port (9100): connect, ask its status (a thermal
 * printer's DLE EOT 1 and 4: offline? paper end?; a label printer's ~HS), send the job, close. Every step has a deadline,
 * so an unplugged or hung printer never holds the request: it answers what failed instead.
 */

export interface TiemposImpresora {
  /** Connecting (a printer that is off usually does not answer at all). */
  conectarMs: number;
  /** Its two status bytes, and the whole job being taken. */
  respuestaMs: number;
}

export const TIEMPOS_IMPRESORA: TiemposImpresora = { conectarMs: 3000, respuestaMs: 5000 };

export class FallaImpresora extends Error {
  constructor(
    readonly motivo: 'inalcanzable' | 'rechazo' | 'sin_respuesta' | 'sin_papel' | 'fuera_de_linea',
    detalle: string,
  ) {
    super(detalle);
  }
}

/** What a failure says to the cashier, naming the caja and where its printer is. */
function detalle(motivo: FallaImpresora['motivo'], donde: string): string {
  switch (motivo) {
    case 'inalcanzable':
      return `La impresora ${donde} no responde: revisá que esté prendida y conectada a la red.`;
    case 'rechazo':
      return `La impresora ${donde} no acepta la conexión: revisá que esté prendida, y la IP y el puerto en la configuración de la caja.`;
    case 'sin_respuesta':
      return `La impresora ${donde} no terminó de responder a tiempo: revisá que esté prendida y con la tapa cerrada.`;
    case 'sin_papel':
      return `La impresora ${donde} no tiene papel: cambiá el rollo y reintentá.`;
    case 'fuera_de_linea':
      return `La impresora ${donde} está fuera de línea (tapa abierta o error): revisala y reintentá.`;
  }
}

/**
 * How a printer is asked its status before a job, and what its answer says (null: not all of it
 * arrived yet). ESC/POS: DLE EOT 1 and 4, one byte each.
 */
export interface ProtocoloEstado {
  pedido: Uint8Array;
  leer(recibido: number[]): 'ok' | 'sin_papel' | 'fuera_de_linea' | null;
}

export const ESTADO_ESCPOS: ProtocoloEstado = {
  pedido: PEDIDO_ESTADO,
  leer(r) {
    if (r.length < 2) return null;
    const e = leerEstado(r[0], r[1]);
    return e.sinPapel ? 'sin_papel' : e.offline ? 'fuera_de_linea' : 'ok';
  },
};

/** Sends `bytes` to host:port; rejects with a FallaImpresora saying what failed. */
export function imprimirEnRed(
  destino: { host: string; puerto: number; nombre: string },
  bytes: Uint8Array,
  tiempos: TiemposImpresora = TIEMPOS_IMPRESORA,
  protocolo: ProtocoloEstado = ESTADO_ESCPOS,
): Promise<void> {
  const donde = `de ${destino.nombre} (${destino.host}:${destino.puerto})`;
  return new Promise((resolve, reject) => {
    let estado: number[] = [];
    let etapa: 'conectando' | 'estado' | 'enviando' | 'listo' = 'conectando';
    const socket = net.createConnection({ host: destino.host, port: destino.puerto });
    const fallar = (motivo: FallaImpresora['motivo']) => {
      if (etapa === 'listo') return;
      etapa = 'listo';
      clearTimeout(timer);
      socket.destroy();
      reject(new FallaImpresora(motivo, detalle(motivo, donde)));
    };
    let timer = setTimeout(() => fallar('inalcanzable'), tiempos.conectarMs);
    socket.on('connect', () => {
      clearTimeout(timer);
      etapa = 'estado';
      timer = setTimeout(() => fallar('sin_respuesta'), tiempos.respuestaMs);
      socket.write(protocolo.pedido);
    });
    socket.on('data', (chunk: Buffer) => {
      if (etapa !== 'estado') return;
      estado = [...estado, ...chunk];
      const e = protocolo.leer(estado);
      if (e === null) return;
      if (e !== 'ok') return fallar(e);
      etapa = 'enviando';
      // Taken once every byte left for the printer; the socket is let go when it closes its side
      // (or, at the latest, after the answer's deadline).
      socket.end(bytes, () => {
        if (etapa !== 'enviando') return;
        etapa = 'listo';
        clearTimeout(timer);
        setTimeout(() => socket.destroy(), tiempos.respuestaMs).unref();
        resolve();
      });
    });
    socket.on('close', () => fallar('sin_respuesta'));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      if (etapa === 'conectando') fallar(e.code === 'ECONNREFUSED' ? 'rechazo' : 'inalcanzable');
      else fallar('sin_respuesta');
    });
  });
}
