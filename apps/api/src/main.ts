import { createServer } from 'node:net';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildApp } from './app.js';
import { readEnv, type Env } from './config.js';
import { hotBackup } from './db/backup.js';
import { scheduleBackups } from './db/backup-schedule.js';
import { DATABASE_NAME, openDatabase, type OpenDatabase } from './db/bootstrap.js';
import { resolveJwtSecret } from './lib/jwt-secret.js';
import { closeHttps, listenHttps } from './lib/lan-https.js';
import { ensureLanTls, lanNames, type LanTls } from './lib/lan-tls.js';
import { lanMessage, lanUrls } from './lib/lan.js';
import { describeFsError, startupMessage } from './lib/startup-error.js';
import { clockFromFile } from './lib/test-clock.js';
import { parseTrustProxy } from './lib/transport.js';

/** Fails fast, before starting PostgreSQL, when the port is taken (another Mostrador, another program). */
function checkPortFree(port: number, host: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => probe.close(() => resolve()));
  });
}

const where: { port?: number; host?: string; dataDir?: string } = {};

async function main() {
  const started = Date.now();
  const env = readEnv();
  const dataDir = path.resolve(env.DATA_DIR);
  Object.assign(where, { port: env.PORT, host: env.HOST, dataDir });
  try {
    mkdirSync(dataDir, { recursive: true });
  } catch (e) {
    throw describeFsError(e, dataDir);
  }
  if (env.PORT) await checkPortFree(env.PORT, env.HOST);
  if (env.HTTPS_PORT) {
    where.port = env.HTTPS_PORT;
    await checkPortFree(env.HTTPS_PORT, env.HOST);
    where.port = env.PORT;
  }

  const db = await openDatabase(
    env.DATABASE_URL,
    dataDir,
    20,
    {
      statementMs: env.DB_STATEMENT_TIMEOUT_MS,
      lockMs: env.DB_LOCK_TIMEOUT_MS,
      idleInTransactionMs: env.DB_IDLE_IN_TRANSACTION_TIMEOUT_MS,
    },
    {
      appDatabaseUrl: env.APP_DATABASE_URL,
      reportsDatabaseUrl: env.DATABASE_URL ? env.REPORTS_DATABASE_URL : undefined,
      log: (level, msg) => {
        if (level === 'warn') console.warn(msg);
        else if (level === 'error') console.error(msg);
      },
      onFatal: (msg) => {
        console.error(msg);
        process.exit(1);
      },
    },
  );
  try {
    await serve(env, dataDir, db, started);
  } catch (e) {
    await db.close();
    throw e;
  }
}

async function serve(env: Env, dataDir: string, db: OpenDatabase, started: number) {
  const { database, embedded, reports } = db;

  // A shop's installation (modo local) on the embedded database is backed up daily into
  // BACKUP_DIR (decision 0055); a hosted one has its provider's backups.
  const backupDir = path.resolve(env.BACKUP_DIR ?? path.join(dataDir, 'copias'));
  const backups =
    embedded && env.MOSTRADOR_MODO === 'local'
      ? scheduleBackups({
          folder: backupDir,
          keep: env.BACKUP_KEEP,
          backup: () => hotBackup({ ownerUrl: embedded.url(DATABASE_NAME), dataDir, folder: backupDir }),
          log: (level, msg) => (level === 'error' ? console.error(msg) : process.stdout.write(`${msg}\n`)),
        })
      : undefined;
  // HTTPS on the shop's network: the local CA (made once) and a certificate for the PC's names and
  // addresses, re-issued when they change (decision 0055).
  let tls: LanTls | undefined;
  if (env.HTTPS_PORT) {
    try {
      tls = ensureLanTls(dataDir, lanNames(undefined, undefined, env.HTTPS_HOSTS.split(',')));
    } catch (e) {
      throw describeFsError(e, path.join(dataDir, 'tls'));
    }
  }
  const httpsUrls = env.HTTPS_PORT ? lanUrls(env.HOST, env.HTTPS_PORT).map((u) => u.replace(/^http:/, 'https:')) : [];
  const webDist = env.WEB_DIST ?? fileURLToPath(new URL('../../web/dist', import.meta.url));
  const app = await buildApp({
    database,
    reports,
    // server_secrets belongs to the owner: the app role cannot read it.
    jwtSecret: await db.asOwner((owner) =>
      resolveJwtSecret({ given: env.JWT_SECRET, dataDir, db: owner.db, embedded: !!embedded }),
    ),
    publicUrl: env.PUBLIC_URL || `http://localhost:${env.PORT}`,
    smtpUrl: env.SMTP_URL,
    mailFrom: env.MAIL_FROM,
    corsOrigins: env.CORS_ORIGINS.split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    webDist,
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    modo: env.MOSTRADOR_MODO,
    backups,
    certificado: tls && env.HTTPS_PORT ? { caPem: tls.caPem, httpsPort: env.HTTPS_PORT, urls: httpsUrls } : undefined,
    logger: { level: env.LOG_LEVEL },
    now: clockFromFile(process.env.MOSTRADOR_CLOCK_FILE),
    rateLimits: {
      signupPerHour: env.RATE_LIMIT_SIGNUP_PER_HOUR,
      loginFailuresPerEmail: env.RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL,
      loginFailuresPerIp: env.RATE_LIMIT_LOGIN_FAILURES_PER_IP,
    },
    imports: { concurrent: env.IMPORT_CONCURRENCY, queued: env.IMPORT_QUEUE, parseMs: env.IMPORT_TIMEOUT_MS },
    arca: {
      urls: {
        ...(env.ARCA_WSAA_URL ? { wsaa: env.ARCA_WSAA_URL } : {}),
        ...(env.ARCA_WSFE_URL ? { wsfe: env.ARCA_WSFE_URL } : {}),
        ...(env.ARCA_PADRON_URL ? { padron: env.ARCA_PADRON_URL } : {}),
      },
      keySecret: env.ARCA_KEY_SECRET,
      timeoutMs: env.ARCA_TIMEOUT_MS,
    },
    mercadopago: {
      apiUrl: env.MERCADOPAGO_API_URL,
      timeoutMs: env.MERCADOPAGO_TIMEOUT_MS,
      pendingAfterMs: env.MERCADOPAGO_PENDIENTE_MS,
    },
  });
  if (!env.SMTP_URL) {
    app.log.warn(
      'SMTP_URL no está configurado: las cuentas nuevas quedan confirmadas al registrarse y los e-mails se escriben en este registro.',
    );
  }

  let https: Awaited<ReturnType<typeof listenHttps>> | undefined;
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info(`${signal}: deteniendo Mostrador…`);
    backups?.stop();
    if (https) await closeHttps(https);
    await app.close().catch(() => {});
    await db.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop('SIGINT'));
  process.on('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: env.PORT, host: env.HOST });
  if (tls && env.HTTPS_PORT) {
    https = await listenHttps(app, tls, env.HTTPS_PORT, env.HOST);
    app.log.info(
      { caFingerprint: tls.caFingerprint, renewed: tls.issued },
      `HTTPS en https://localhost:${env.HTTPS_PORT} (certificado de la CA local de ${path.join(dataDir, 'tls')})`,
    );
  }
  app.log.info(
    `Mostrador listo en http://localhost:${env.PORT} (${embedded ? `PostgreSQL embebido en ${dataDir}` : 'DATABASE_URL'}${env.MOSTRADOR_MODO === 'local' ? ', instalación local sin planes ni límites' : ''}) en ${Date.now() - started} ms`,
  );
  const lan = lanUrls(env.HOST, env.PORT);
  if (lan.length) {
    app.log.info(
      { urls: lan, https: httpsUrls },
      `Desde otras computadoras de la red: ${[...lan, ...httpsUrls].join(', ')}`,
    );
    // Plain lines too, for whoever reads the window where Mostrador runs.
    const https = tls ? { urls: httpsUrls, fingerprint: tls.caFingerprint } : undefined;
    process.stdout.write(`${lanMessage(lan, https).join('\n')}\n`);
  }
}

main().catch((err) => {
  console.error(startupMessage(err, where));
  if (process.env.LOG_LEVEL === 'debug') console.error(err);
  process.exit(1);
});
