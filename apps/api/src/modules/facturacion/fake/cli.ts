import { parseArgs } from 'node:util';
import { FakeArca } from './fake-arca.js';

/*
 * npm run arca:fake -- --port 4455 [--slow-ms 3000] [--down] [--timeout-after-approve] [--reject-code 10016] [--lenient]
 * Serves /wsaa, /wsfe and /padron-a5 on 127.0.0.1; POST /__control {slow_ms, down,
 * timeout_after_approve, reject_code} flips the faults while it runs, POST /__control/reset clears
 * them, POST /__control/certificado {csr_pem} answers the certificate ARCA's portal would.
 */
const { values } = parseArgs({
  options: {
    port: { type: 'string', default: '4455' },
    'slow-ms': { type: 'string' },
    down: { type: 'boolean' },
    'timeout-after-approve': { type: 'boolean' },
    'reject-code': { type: 'string' },
    lenient: { type: 'boolean' },
  },
});

const fake = new FakeArca();
fake.setFaults({
  slow_ms: Number(values['slow-ms'] ?? 0),
  down: values.down ?? false,
  timeout_after_approve: values['timeout-after-approve'] ?? false,
  reject_code: values['reject-code'] ?? null,
  lenient: values.lenient ?? false,
});
const url = await fake.listen(Number(values.port));
process.stdout.write(
  `ARCA de pruebas en ${url}: ${url}/wsaa, ${url}/wsfe, ${url}/padron-a5 (control: POST ${url}/__control)\n`,
);
const stop = () => void fake.close().then(() => process.exit(0));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
