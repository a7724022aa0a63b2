import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { Db } from '../db/client.js';
import { serverSecrets } from '../db/schema/index.js';

const newSecret = () => randomBytes(48).toString('base64url');

function readSecretFile(file: string): string | null {
  return existsSync(file) ? readFileSync(file, 'utf8').trim() || null : null;
}

/** The key kept in DATA_DIR/jwt-secret (one server on its embedded PostgreSQL), created once. */
export function fileJwtSecret(dataDir: string): string {
  const file = path.join(dataDir, 'jwt-secret');
  const existing = readSecretFile(file);
  if (existing) return existing;
  const secret = newSecret();
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}

/**
 * The key kept in the database, so every instance on it signs and accepts the same tokens. The
 * first instance creates it (`initial`); the others, even starting at the same moment, read that one.
 */
export async function databaseJwtSecret(db: Db, initial: string = newSecret()): Promise<string> {
  await db.insert(serverSecrets).values({ nombre: 'jwt', valor: initial }).onConflictDoNothing();
  const [row] = await db
    .select({ valor: serverSecrets.valor })
    .from(serverSecrets)
    .where(eq(serverSecrets.nombre, 'jwt'));
  return row.valor;
}

/**
 * JWT_SECRET when given; otherwise, on DATABASE_URL, the key in the database (started from an
 * existing DATA_DIR/jwt-secret, so sessions of a server that used the file stay valid), and on the
 * embedded PostgreSQL the file.
 */
export async function resolveJwtSecret(opts: {
  given?: string;
  dataDir: string;
  db: Db;
  embedded: boolean;
}): Promise<string> {
  if (opts.given) return opts.given;
  if (opts.embedded) return fileJwtSecret(opts.dataDir);
  return databaseJwtSecret(opts.db, readSecretFile(path.join(opts.dataDir, 'jwt-secret')) ?? newSecret());
}
