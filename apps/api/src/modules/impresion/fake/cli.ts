import http from 'node:http';
import { createInterface } from 'node:readline';
import { iniciarImpresoraFalsa, type ModoImpresora } from './impresora-falsa.js';
import { decodificar, textoDe } from './decodificar.js';
import { decodificarZpl, textoZpl } from './decodificar-zpl.js';

/*
 * `npm run printer:fake -- --port 9100 [--modo ok|apagada|lenta|sin_papel] [--control 9101]`: a
 * network thermal printer on loopback that prints each job it receives, decoded, on the console
 * (ESC/POS tickets, and ZPL labels: a malformed ZPL job is refused and said so).
 * Typing a mode (ok, apagada, lenta, sin_papel) and Enter switches it while it runs. With
 * `--control`, an HTTP endpoint on loopback for the journeys: `GET /__control` answers the mode
 * and every job decoded, `POST /__control/modo/<modo>` switches it.
 */

const MODOS: ModoImpresora[] = ['ok', 'apagada', 'lenta', 'sin_papel'];
const say = (text: string) => process.stdout.write(`${text}\n`);
const arg = (name: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
};
const modo = (arg('modo') ?? 'ok') as ModoImpresora;
if (!MODOS.includes(modo)) {
  console.error(`Modo desconocido: ${modo}. Elegí uno de: ${MODOS.join(', ')}.`);
  process.exit(2);
}

const impresora = await iniciarImpresoraFalsa({
  port: Number(arg('port') ?? 9100),
  host: arg('host') ?? '127.0.0.1',
  alRechazo: (motivo) => say(`\n===== ZPL rechazado: ${motivo}`),
  alTrabajo(bytes) {
    if (bytes[0] === 0x5e) {
      say(
        `\n===== etiquetas ZPL #${impresora.trabajos.length} (${bytes.length} bytes)\n${textoZpl(decodificarZpl(bytes))}`,
      );
      return;
    }
    try {
      const t = decodificar(bytes);
      const extra = [
        t.qr.length ? `QR: ${t.qr.join(' | ')}` : '',
        t.cajon ? 'CAJÓN ABIERTO' : '',
        t.cortes ? 'CORTE' : '',
      ]
        .filter(Boolean)
        .join(' · ');
      say(`\n===== trabajo #${impresora.trabajos.length} (${bytes.length} bytes)\n${textoDe(t)}\n----- ${extra}`);
    } catch (e) {
      say(`\n===== trabajo ilegible (${bytes.length} bytes): ${(e as Error).message}`);
    }
  },
});
await impresora.modo(modo);
say(`Impresora térmica falsa en ${impresora.host}:${impresora.port} (modo ${modo}).`);

createInterface({ input: process.stdin }).on('line', (line) => {
  const m = line.trim() as ModoImpresora;
  if (!MODOS.includes(m)) return say(`Modos: ${MODOS.join(', ')}.`);
  void impresora.modo(m).then(() => say(`Modo: ${m}.`));
});
for (const sig of ['SIGINT', 'SIGTERM'] as const)
  process.on(sig, () => void impresora.cerrar().then(() => process.exit(0)));

const control = arg('control');
if (control) {
  let actual: ModoImpresora = modo;
  http
    .createServer((req, res) => {
      const m = /^\/__control\/modo\/(\w+)$/.exec(req.url ?? '');
      if (req.method === 'POST' && m && MODOS.includes(m[1] as ModoImpresora)) {
        actual = m[1] as ModoImpresora;
        void impresora.modo(actual).then(() => res.writeHead(204).end());
        return;
      }
      if (req.method === 'GET' && req.url === '/__control') {
        const escpos = impresora.trabajos.filter((b) => b[0] !== 0x5e);
        const trabajos = escpos.map((b) => decodificar(b));
        const etiquetas = impresora.trabajos.filter((b) => b[0] === 0x5e).map((b) => decodificarZpl(b));
        const rechazados = impresora.rechazados.map((r) => r.motivo);
        res
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ modo: actual, trabajos, etiquetas, rechazados }));
        return;
      }
      res.writeHead(404).end();
    })
    .listen(Number(control), '127.0.0.1');
}
