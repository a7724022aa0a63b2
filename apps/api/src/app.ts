import { randomUUID } from 'node:crypto';
import { existsSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import cors from '@fastify/cors';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, {
  LogController,
  type FastifyBaseLogger,
  type FastifyInstance,
  type FastifyReply,
  type RawServerDefault,
} from 'fastify';
import { validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import '@mostrador/shared';
import type { Modo } from '@mostrador/shared';
import type { BackupSchedule } from './db/backup-schedule.js';
import type { Database } from './db/client.js';
import { accessPlugin, API_PREFIX, methodsOn } from './lib/access.js';
import { installCostVisibility } from './lib/costs.js';
import { installErrorHandler } from './lib/error-handler.js';
import { frameworkErrors, installInputGuard } from './lib/input-guard.js';
import { installRefusalLog, loggerRedact, loggerSerializers } from './lib/logging.js';
import { installPaymentLabels } from './lib/payment-labels.js';
import { installResponseDocs, openApiTransform, responseSerializer } from './lib/responses.js';
import { createMailer, type Mailer } from './lib/mailer.js';
import { installHttpsOnlyHeaders } from './lib/transport.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { autorizacionRoutes } from './modules/autorizacion/autorizacion.routes.js';
import { businessRoutes } from './modules/businesses/businesses.routes.js';
import { categoryRoutes } from './modules/categories/categories.routes.js';
import { customerRoutes } from './modules/customers/customers.routes.js';
import { dashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { financeRoutes } from './modules/finance/finance.routes.js';
import { auditRoutes } from './modules/audit/audit.routes.js';
import { healthRoutes } from './modules/health/health.routes.js';
import { planRoutes } from './modules/plan/plan.routes.js';
import { importRoutes } from './modules/imports/imports.routes.js';
import { invitationRoutes } from './modules/invitations/invitations.routes.js';
import { memberRoutes } from './modules/members/members.routes.js';
import { productRoutes } from './modules/products/products.routes.js';
import { idempotencyPlugin } from './lib/idempotency.js';
import { serviceRoutes } from './modules/services/services.routes.js';
import { copiaRoutes } from './modules/copias/copias.routes.js';
import { certificadoRoutes, type CertificadoSettings } from './modules/certificado/certificado.routes.js';
import { settingsRoutes } from './modules/settings/settings.routes.js';
import { subscriptionRoutes } from './modules/subscriptions/subscriptions.routes.js';
import { taskRoutes } from './modules/tasks/tasks.routes.js';
import { notificationRoutes } from './modules/notifications/notifications.routes.js';
import { supplierRoutes } from './modules/suppliers/suppliers.routes.js';
import { purchaseRoutes } from './modules/purchases/purchases.routes.js';
import { cajaRoutes } from './modules/caja/caja.routes.js';
import { chequeRoutes } from './modules/cheques/cheques.routes.js';
import { reportsReader, type ReportsReader } from './db/reports.js';
import { salesRoutes } from './modules/sales/sales.routes.js';
import { devolucionRoutes } from './modules/devoluciones/devoluciones.routes.js';
import { secretBox } from './modules/facturacion/arca-crypto.js';
import { Facturador, type ArcaSettings } from './modules/facturacion/facturador.js';
import { facturacionRoutes } from './modules/facturacion/facturacion.routes.js';
import { MercadoPago, type MercadoPagoSettings } from './modules/mercadopago/mercadopago.js';
import { mercadopagoRoutes } from './modules/mercadopago/mercadopago.routes.js';
import { posRoutes } from './modules/pos/pos.routes.js';
import { precioRoutes } from './modules/precios/precios.routes.js';
import { impresionRoutes } from './modules/impresion/impresion.routes.js';
import { presupuestoRoutes } from './modules/presupuestos/presupuestos.routes.js';
import { remitoRoutes } from './modules/remitos/remitos.routes.js';
import { depositoRoutes } from './modules/depositos/depositos.routes.js';
import { etiquetaRoutes } from './modules/etiquetas/etiquetas.routes.js';
import { TIEMPOS_IMPRESORA, type TiemposImpresora } from './modules/impresion/impresora-red.js';

export type App = FastifyInstance<
  RawServerDefault,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  ZodTypeProvider
>;

export interface AppOptions {
  database: Database;
  /** A streaming replica for reports (REPORTS_DATABASE_URL); the primary when absent. */
  reports?: Database | null;
  jwtSecret: string;
  publicUrl: string;
  smtpUrl?: string;
  mailFrom?: string;
  corsOrigins?: string[];
  webDist?: string;
  logger?: boolean | { level: string; stream?: { write(line: string): void } };
  /** Injected clock, so time-dependent rules are tested without waiting. */
  now?: () => Date;
  rateLimits?: { signupPerHour?: number; loginFailuresPerEmail?: number; loginFailuresPerIp?: number };
  /** Spreadsheet imports: parsed at once, waiting for a turn, the time and heap one file may take. */
  imports?: Partial<ImportLimits>;
  /** Proxies whose X-Forwarded-* headers are believed (TRUST_PROXY); none by default. */
  trustProxy?: false | string[];
  /** Validate every answer against its documented schema (the tests); a mismatch is a 500. */
  checkResponses?: boolean;
  /** ARCA's endpoints and timings; `keySecret` encrypts the private keys (default: derived from jwtSecret). */
  arca?: ArcaSettings & { keySecret?: string };
  /** Mercado Pago's API and timings (decision 0052); its tokens are encrypted like the ARCA keys. */
  mercadopago?: MercadoPagoSettings;
  /**
   * Argon2id's cost for new password hashes; the library's default (19 MiB, 2 passes) when absent,
   * as main.ts leaves it. The API tests pass a small one: they sign up thousands of users.
   */
  passwordCost?: { memoryCost: number; timeCost: number };
  /** Deadlines of a network printer (connect, status and job); the tests shorten them. */
  impresoras?: Partial<TiemposImpresora>;
  /** `local`: installed in the shop, without trial, plans or limits (decision 0055); `saas` by default. */
  modo?: Modo;
  /** The daily backup of the embedded database (main.ts), shown to the owners. */
  backups?: Pick<BackupSchedule, 'status'>;
  /** HTTPS on the shop's network (main.ts, HTTPS_PORT): the local CA the /certificado page offers. */
  certificado?: CertificadoSettings;
}

export interface AppServices {
  mailer: Mailer;
  jwtKey: Uint8Array;
  publicUrl: string;
  now: () => Date;
  rateLimits: { signupPerHour: number; loginFailuresPerEmail: number; loginFailuresPerIp: number };
  imports: ImportLimits;
  passwordCost?: { memoryCost: number; timeCost: number };
  impresoras: TiemposImpresora;
  modo: Modo;
  backups?: Pick<BackupSchedule, 'status'>;
}

export interface ImportLimits {
  concurrent: number;
  queued: number;
  parseMs: number;
  /** The heap of the thread that reads one file (MB); a file that needs more is refused. */
  heapMb: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    db: Database;
    /** Reports, dashboards, exports and finance summaries read here (db/reports.ts). */
    reports: ReportsReader;
    services: AppServices;
    /** Electronic invoices through ARCA (modules/facturacion). */
    facturacion: Facturador;
    /** Mercado Pago at the counter (modules/mercadopago). */
    mercadopago: MercadoPago;
  }
}

/** Builds the whole application without listening: main.ts listens, tests use inject(). */
export async function buildApp(opts: AppOptions): Promise<App> {
  const app = Fastify({
    logger: opts.logger
      ? {
          ...(typeof opts.logger === 'object' ? opts.logger : {}),
          serializers: loggerSerializers,
          redact: loggerRedact,
        }
      : false,
    logController: new LogController({ disableRequestLogging: true }),
    genReqId: () => randomUUID(),
    bodyLimit: 1024 * 1024,
    trustProxy: opts.trustProxy ?? false,
    // A parameter over 255 characters (no id, token or e-mail is that long) is a 404, before any lookup.
    routerOptions: { ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 255 },
    frameworkErrors,
  }).withTypeProvider<ZodTypeProvider>();

  // Bodies are JSON (forms only on the login, multipart only on uploads): anything else is 415.
  app.removeContentTypeParser('text/plain');
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(responseSerializer(opts.checkResponses ?? false));

  const jwtKey = new TextEncoder().encode(opts.jwtSecret);
  app.decorate('db', opts.database);
  app.decorate('reports', reportsReader(opts.database, opts.reports));
  app.decorate('services', {
    mailer: createMailer(opts.smtpUrl, opts.mailFrom ?? 'Mostrador <no-responder@mostrador.local>', app.log),
    jwtKey,
    publicUrl: opts.publicUrl.replace(/\/$/, ''),
    now: opts.now ?? (() => new Date()),
    rateLimits: {
      signupPerHour: opts.rateLimits?.signupPerHour ?? 10,
      loginFailuresPerEmail: opts.rateLimits?.loginFailuresPerEmail ?? 10,
      loginFailuresPerIp: opts.rateLimits?.loginFailuresPerIp ?? 50,
    },
    imports: { concurrent: 2, queued: 4, parseMs: 20_000, heapMb: 256, ...opts.imports },
    passwordCost: opts.passwordCost,
    impresoras: { ...TIEMPOS_IMPRESORA, ...opts.impresoras },
    modo: opts.modo ?? 'saas',
    backups: opts.backups,
  });

  const facturador = new Facturador(
    opts.database,
    secretBox(opts.arca?.keySecret ?? opts.jwtSecret),
    opts.arca ?? {},
    app.services.now,
    app.log,
  );
  app.decorate('facturacion', facturador);
  app.addHook('onReady', async () => facturador.start());
  app.addHook('onClose', async () => facturador.stop());
  const mercadopago = new MercadoPago(
    opts.database,
    secretBox(opts.arca?.keySecret ?? opts.jwtSecret, 'mercadopago-tokens'),
    opts.mercadopago ?? {},
    app.services.now,
    app.log,
  );
  app.decorate('mercadopago', mercadopago);
  app.addHook('onReady', async () => mercadopago.start());
  app.addHook('onClose', async () => mercadopago.stop());

  app.addHook('onRequest', async (req, reply) => {
    reply.header('X-Request-Id', req.id);
  });

  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        'script-src': ["'self'"],
        'style-src': ["'self'", "'unsafe-inline'"],
        'img-src': ["'self'", 'data:'],
        // No page of ours is shown inside another (clickjacking) or needs a <base> (issue 31).
        'frame-ancestors': ["'none'"],
        'base-uri': ["'none'"],
        'upgrade-insecure-requests': null,
      },
    },
    frameguard: { action: 'deny' },
    hsts: false,
  });
  installHttpsOnlyHeaders(app, opts.publicUrl);
  // JSON answers over 1 KB go compressed when the client accepts it (brotli or gzip), at the fast
  // levels: on a 190 KB report gzip 6 took 12 ms of the event loop, gzip 1 4 ms and brotli 2 3 ms
  // for 4-8 % more bytes (issue 20, docs/decisions/0022); brotli 1 makes the same bytes as 2 on a
  // month's report (36.5 KB) in 70 % of the time, which under load is 25 % more reports per second
  // (docs/decisions/0027). Answers already in memory up to 256 KB are compressed in one synchronous
  // call: the plugin's default on 2 cores (8 KB) sent a page of products (~23 KB) through a zlib
  // stream, whose setup and scheduling cost more than the compression itself (docs/decisions/0028),
  // and a month's report (~200 KB, ~1 ms of brotli 1) in one call gave 5-10 % more reports per
  // second under load than streamed (0027). Bigger answers and streams (xlsx, files) still stream.
  await app.register(compress, {
    threshold: 1024,
    syncThreshold: 256 * 1024,
    encodings: ['br', 'gzip'],
    zlibOptions: { level: 1 },
    brotliOptions: {
      params: {
        [zlib.constants.BROTLI_PARAM_MODE]: zlib.constants.BROTLI_MODE_TEXT,
        [zlib.constants.BROTLI_PARAM_QUALITY]: 1,
      },
    },
  });
  await app.register(cors, {
    origin: opts.corsOrigins && opts.corsOrigins.length ? opts.corsOrigins : false,
    methods: ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'],
    // No fixed list: the preflight answers the headers the page asks for (only configured origins
    // get an answer at all). The contract's client adds Cache-Control and Pragma to some requests.
    exposedHeaders: ['X-Request-Id', 'X-Total-Count', 'Retry-After', 'Content-Disposition', 'X-Data-Age'],
  });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Mostrador API', version: '1.0.0', description: 'API de Mostrador (v1).' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: openApiTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  installRefusalLog(app);
  installInputGuard(app);
  await app.register(accessPlugin, { jwtKey });
  installResponseDocs(app, opts.checkResponses ?? false);
  installErrorHandler(app);
  installCostVisibility(app);
  installPaymentLabels(app);
  await app.register(idempotencyPlugin);

  await app.register(
    async (api) => {
      const a = api.withTypeProvider<ZodTypeProvider>();
      await healthRoutes(a);
      await authRoutes(a);
      await autorizacionRoutes(a);
      await businessRoutes(a);
      await memberRoutes(a);
      await invitationRoutes(a);
      await settingsRoutes(a);
      await planRoutes(a);
      await auditRoutes(a);
      await dashboardRoutes(a);
      await financeRoutes(a);
      await customerRoutes(a);
      await categoryRoutes(a);
      await productRoutes(a);
      await serviceRoutes(a);
      await posRoutes(a);
      await subscriptionRoutes(a);
      await importRoutes(a);
      await taskRoutes(a);
      await notificationRoutes(a);
      await supplierRoutes(a);
      await purchaseRoutes(a);
      await salesRoutes(a);
      await devolucionRoutes(a);
      await facturacionRoutes(a);
      await precioRoutes(a);
      await cajaRoutes(a);
      await chequeRoutes(a);
      await impresionRoutes(a);
      await etiquetaRoutes(a);
      await copiaRoutes(a);
      await mercadopagoRoutes(a);
      await presupuestoRoutes(a);
      await remitoRoutes(a);
      await depositoRoutes(a);
    },
    { prefix: API_PREFIX },
  );

  // How to trust the local CA, without logging in and over plain HTTP (decision 0055).
  await certificadoRoutes(app, opts.certificado);

  const webDist = opts.webDist && existsSync(path.join(opts.webDist, 'app.html')) ? path.resolve(opts.webDist) : null;
  // The build writes .br and .gz beside each asset (apps/web/build/precompress.ts). Files under
  // /assets/ carry a hash of their content in their name, so a browser keeps them for good; every
  // other file (pages, sw.js, the manifest, icons) is asked again each time (`no-cache`). The
  // library's own header (`public, max-age=0`) is off, or it would replace these.
  if (webDist) {
    const assets = path.join(webDist, 'assets') + path.sep;
    await app.register(fastifyStatic, {
      root: webDist,
      index: false,
      preCompressed: true,
      cacheControl: false,
      setHeaders: (reply: FastifyReply, file: string) => {
        reply.header('Cache-Control', file.startsWith(assets) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  // The landing and legal pages are static pages; every other GET outside the API is a route of
  // the single-page app (app.html).
  const pages: Record<string, string> = {
    '/': 'index.html',
    '/politicas': 'politicas.html',
    '/terminos': 'terminos.html',
    '/cookies': 'cookies.html',
  };
  if (webDist) {
    for (const [url, file] of Object.entries(pages)) {
      app.get(url, { schema: { hide: true } }, (_req, reply) => reply.sendFile(file));
    }
  }
  app.setNotFoundHandler((req, reply) => {
    const pathname = req.url.split('?')[0].replace(/\/+$/, '') || '/';
    const offered = pathname.startsWith('/api/') ? methodsOn(app.routeTable, pathname) : [];
    if (offered.length) {
      return reply
        .status(405)
        .header('Allow', offered.join(', '))
        .send({ detail: 'Operación no permitida.', code: 'METHOD_NOT_ALLOWED' });
    }
    if (!webDist || req.method !== 'GET' || pathname.startsWith('/api/') || pathname.startsWith('/assets/')) {
      return reply.status(404).send({ detail: 'Recurso no encontrado.', code: 'NOT_FOUND' });
    }
    return reply.sendFile(pages[pathname] ?? 'app.html');
  });

  return app;
}
