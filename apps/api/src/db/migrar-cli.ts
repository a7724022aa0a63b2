// npm run migrar: brings the database of DATA_DIR (or DATABASE_URL) to this version's migrations
// and stops, as a start of Mostrador would before serving (`npm run actualizar` runs it, so a
// failed migration is found while the backup is at hand, not at the next start).
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { openDatabase } from './bootstrap.js';
import { DEFAULT_TIMEOUTS } from './client.js';

const dataDir = path.resolve(process.env.DATA_DIR ?? './data');

try {
  mkdirSync(dataDir, { recursive: true });
  const db = await openDatabase(process.env.DATABASE_URL, dataDir, 1, DEFAULT_TIMEOUTS, {
    log: (level, msg) => (level === 'info' ? undefined : console.error(msg)),
  });
  await db.close();
  process.stdout.write('La base de datos está al día con esta versión.\n');
} catch (e) {
  console.error(`No se pudo poner al día la base de datos: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
}
