import { z } from 'zod';

const envSchema = z.object({
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  /** More names for the HTTPS certificate, comma-separated (the shop's own DNS name). */
  HTTPS_HOSTS: z.string().default(''),
  /**
   * HTTPS on the shop's network beside plain HTTP (decision 0055): the port, or empty/`no` for none
   * (the default of the server; npm start's modo local turns it on at 3443).
   */
  HTTPS_PORT: z.preprocess(
    (v) => (typeof v === 'string' && ['', 'no', 'off', '0'].includes(v.trim().toLowerCase()) ? undefined : v),
    z.coerce.number({ error: 'HTTPS_PORT: un número de puerto (o "no").' }).int().min(1).max(65535).optional(),
  ),
  /**
   * `local`: installed in the shop, without the hosted service's trial, plans and limits; `saas`:
   * the hosted service. npm start sets `local` when there is no DATABASE_URL (decision 0055).
   */
  /** The daily backup of the embedded database: where (DATA_DIR/copias by default), and how many to keep (decision 0055). */
  BACKUP_DIR: z.string().optional(),
  BACKUP_KEEP: z.coerce.number().int().min(1).default(14),
  MOSTRADOR_MODO: z.enum(['saas', 'local'], { error: 'MOSTRADOR_MODO: saas o local.' }).default('saas'),
  DATABASE_URL: z.string().optional(),
  /** The requests' connection, as a role the operator created (docs/decisions/0010); derived by default. */
  APP_DATABASE_URL: z.string().optional(),
  /** A streaming replica for reports, dashboards, exports and finance summaries (docs/decisions/0015). */
  REPORTS_DATABASE_URL: z.string().optional(),
  JWT_SECRET: z.string().min(32).optional(),
  SMTP_URL: z.string().optional(),
  MAIL_FROM: z.string().default('Mostrador <no-responder@mostrador.local>'),
  CORS_ORIGINS: z.string().default(''),
  PUBLIC_URL: z.string().default(''),
  LOG_LEVEL: z.string().default('info'),
  RATE_LIMIT_SIGNUP_PER_HOUR: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_LOGIN_FAILURES_PER_EMAIL: z.coerce.number().int().positive().default(10),
  RATE_LIMIT_LOGIN_FAILURES_PER_IP: z.coerce.number().int().positive().default(50),
  WEB_DIST: z.string().optional(),
  TRUST_PROXY: z.string().default(''),
  DB_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(0).default(30_000),
  DB_LOCK_TIMEOUT_MS: z.coerce.number().int().min(0).default(5_000),
  IMPORT_CONCURRENCY: z.coerce.number().int().positive().default(2),
  IMPORT_QUEUE: z.coerce.number().int().min(0).default(4),
  IMPORT_TIMEOUT_MS: z.coerce.number().int().positive().default(20_000),
  DB_IDLE_IN_TRANSACTION_TIMEOUT_MS: z.coerce.number().int().min(0).default(60_000),
  /** ARCA's web services (decision 0013): absent, ARCA's own for the business's entorno. */
  ARCA_WSAA_URL: z.string().optional(),
  ARCA_WSFE_URL: z.string().optional(),
  ARCA_PADRON_URL: z.string().optional(),
  /** Encrypts the certificates' private keys at rest; absent, derived from the token key. */
  ARCA_KEY_SECRET: z.string().min(32).optional(),
  ARCA_TIMEOUT_MS: z.coerce.number().int().positive().default(15_000),
  /** Mercado Pago's API (decision 0052): MP's own by default; the fake (npm run mp:fake) in development. */
  MERCADOPAGO_API_URL: z.string().url().default('https://api.mercadopago.com'),
  MERCADOPAGO_TIMEOUT_MS: z.coerce.number().int().positive().default(10_000),
  /** A pending order is read again from MP after this long without news (a lost notification). */
  MERCADOPAGO_PENDIENTE_MS: z.coerce.number().int().positive().default(10_000),
});

export type Env = z.infer<typeof envSchema>;

export function readEnv(source: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
    throw new Error(`Configuración inválida:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
