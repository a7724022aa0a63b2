import { parseArgs } from 'node:util';
import { FakeMercadoPago } from './fake-mp.js';

/*
 * npm run mp:fake -- --port 4466 [--token APP_USR-prueba] [--webhook-url http://localhost:3000/api/v1/webhooks/mercadopago]
 *   [--webhook-secret secreto-de-prueba] [--pos CAJA1,CAJA2] [--terminales PAX_A910__1,NEWLAND_N950__2]
 *   [--lento-ms 3000] [--caido] [--rechazar] [--expira-ms 60000] [--perder-notificaciones] [--duplicar-notificaciones]
 * Serves MP's API on 127.0.0.1 for one account (its access token, points of sale and Point
 * terminals) and sends its signed notifications to --webhook-url. While it runs: POST /_fake
 * {lento_ms, caido, rechazar, expira_ms, perder_notificaciones, duplicar_notificaciones,
 * comision_porcentaje} flips the switches, POST /_fake/reset clears them, POST
 * /_fake/ordenes/{id}/pagar | rechazar | expirar plays the customer, POST /_fake/pagos
 * {access_token, monto} is a payment outside any order, POST /_fake/cuentas adds an account.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4466' },
    token: { type: 'string', default: 'APP_USR-mostrador-prueba' },
    'webhook-url': { type: 'string' },
    'webhook-secret': { type: 'string', default: 'secreto-de-webhooks-de-prueba' },
    pos: { type: 'string', default: 'MOSTRADOR-CAJA-1' },
    terminales: { type: 'string', default: 'NEWLAND_N950__N950NCB000000001' },
    'lento-ms': { type: 'string' },
    caido: { type: 'boolean' },
    rechazar: { type: 'boolean' },
    'expira-ms': { type: 'string' },
    'perder-notificaciones': { type: 'boolean' },
    'duplicar-notificaciones': { type: 'boolean' },
  },
});

const list = (s: string | undefined) =>
  (s ?? '')
    .split(',')
    .map((x) => x.trim())
    .filter(Boolean);
const fake = new FakeMercadoPago();
fake.cuenta(values.token!, {
  nickname: 'MOSTRADORPRUEBA',
  webhook_url: values['webhook-url'] ?? null,
  webhook_secret: values['webhook-secret'],
  pos: list(values.pos),
  terminales: list(values.terminales),
});
fake.setSwitches({
  lento_ms: Number(values['lento-ms'] ?? 0),
  caido: values.caido ?? false,
  rechazar: values.rechazar ?? false,
  expira_ms: values['expira-ms'] ? Number(values['expira-ms']) : null,
  perder_notificaciones: values['perder-notificaciones'] ?? false,
  duplicar_notificaciones: values['duplicar-notificaciones'] ?? false,
});
const url = await fake.listen(Number(values.port));
process.stdout.write(
  `Mercado Pago de pruebas en ${url} (MERCADOPAGO_API_URL=${url}); access token ${values.token}, ` +
    `cajas ${list(values.pos).join(', ') || '—'}, terminales ${list(values.terminales).join(', ') || '—'}; ` +
    `notificaciones a ${values['webhook-url'] ?? '(ninguna URL)'}; control: POST ${url}/_fake\n`,
);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
