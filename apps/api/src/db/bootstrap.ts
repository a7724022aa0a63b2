import path from 'node:path';
import pg from 'pg';
import { connect, type Database } from './client.js';
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
): Promise<OpenDatabase> {
  let embedded: EmbeddedServer | null = null;
  let url = databaseUrl;
  if (!url) {
    embedded = await startEmbedded(path.join(dataDir, 'postgres'));
    await ensureDatabase(embedded.url('postgres'), DATABASE_NAME);
    url = embedded.url(DATABASE_NAME);
  }
  const database = connect(url, poolSize);
  await runMigrations(database.db);
  return {
    database,
    embedded,
    async close() {
      await database.close().catch(() => {});
      if (embedded) await embedded.stop().catch(() => {});
    },
  };
}
