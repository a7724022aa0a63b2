import path from 'node:path';
import pg from 'pg';
import { connect, DEFAULT_TIMEOUTS, type Database, type SessionTimeouts } from './client.js';
import { startEmbedded, type EmbeddedServer } from './embedded.js';
import { runMigrations } from './migrate.js';

const DATABASE_NAME = 'mostrador';

async function ensureDatabase(adminUrl: string, name: string) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query('SELECT 1 FROM pg_database WHERE datname = $1', [name]);
    if (!rowCount) await client.query(`CREATE DATABASE ${name} TEMPLATE template0 ENCODING 'UTF8'`);
  } finally {
    await client.end();
  }
}

export interface OpenDatabase {
  database: Database;
  embedded: EmbeddedServer | null;
  close(): Promise<void>;
}

/**
 * The server of DATABASE_URL, or the embedded PostgreSQL under DATA_DIR/postgres; migrated.
 */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  poolSize = 20,
  timeouts: SessionTimeouts = DEFAULT_TIMEOUTS,
): Promise<OpenDatabase> {
  let embedded: EmbeddedServer | null = null;
  let url = databaseUrl;
  if (!url) {
    embedded = await startEmbedded(path.join(dataDir, 'postgres'));
    await ensureDatabase(embedded.url('postgres'), DATABASE_NAME);
    url = embedded.url(DATABASE_NAME);
  }
  // Migrations run on their own connection, without the requests' timeouts (they may take longer).
  const migrator = connect(url, 1);
  try {
    await runMigrations(migrator.db);
  } finally {
    await migrator.close();
  }
  const database = connect(url, poolSize, timeouts);
  return {
    database,
    embedded,
    async close() {
      await database.close().catch(() => {});
      if (embedded) await embedded.stop().catch(() => {});
    },
  };
}
