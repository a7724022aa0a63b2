import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import fp from 'fastify-plugin';
import { jwtVerify } from 'jose';
import type pg from 'pg';
import { corked } from '../db/pipeline.js';
import { enNegocio, todosLosNegocios } from '../db/tenant.js';
import { permissionKey, type Accion, type Modulo, type PermissionMap } from '@mostrador/shared';
import { formatDateEs } from './dates.js';
import { AppError, invalid, unauthenticated } from './errors.js';
import { planState, type PlanEstado, type PlanId } from './plan.js';

/**
 * What a route needs. Every /api/v1 route must declare one (checked when the route is
 * registered), and every route under /businesses/:id must check the business.
 */
export type Access =
  | { kind: 'public' }
  | { kind: 'user' }
  | { kind: 'member' }
  | { kind: 'admin' }
  | { kind: 'creator'; message: string }
  /** `costos`: the route also needs to see costs (ver_costos); the message says so when refused. */
  | { kind: 'module'; modulo: Modulo; accion: Accion; costos?: string };

export const access = {
  public: { kind: 'public' } as Access,
  user: { kind: 'user' } as Access,
  member: { kind: 'member' } as Access,
  admin: { kind: 'admin' } as Access,
  creator: (message: string): Access => ({ kind: 'creator', message }),
  module: (modulo: Modulo, accion: Accion, o?: { costos: string }): Access => ({
    kind: 'module',
    modulo,
    accion,
    ...(o ? { costos: o.costos } : {}),
  }),
};

export interface AuthUser {
  id: string;
  sessionId: string;
  email: string;
  nombre: string;
}

export interface BusinessContext {
  id: string;
  membershipId: string;
  rol: 'admin' | 'empleado';
  accesoTotal: boolean;
  isCreator: boolean;
  permisos: PermissionMap;
  /** Counter controls (see canSeeCosts, canChangePrices, maxDiscount). */
  verCostos: boolean;
  cambiarPrecios: boolean;
  excederCredito: boolean;
  /** May close the turnos they opened (see canCloseTurno). */
  cerrarTurno: boolean;
  /** The business counts turnos blind (tenant_settings.arqueo_ciego; see blindCount). */
  arqueoCiego: boolean;
  descuentoMaximo: number | null;
  timezone: string;
  locale: string;
  currency: string;
  plan: PlanId;
  planEstado: PlanEstado;
}

export interface RouteEntry {
  method: string;
  url: string;
  access: Access;
  plan: PlanRule;
}

/**
 * What a business route may still do once the trial has ended (API-CONTRACT §1.6): by default
 * writes are refused while read-only, and everything is refused once blocked.
 */
export interface PlanRule {
  /** A write allowed while read-only (choosing a plan, deleting the business, removing a member…). */
  readOnly?: 'allow';
  /** Allowed once blocked (business detail and delete, permissions, the plan routes). */
  blocked?: 'allow';
}

declare module 'fastify' {
  interface FastifyContextConfig {
    access?: Access;
    plan?: PlanRule;
    /**
     * The business may also come in the JSON body (`negocio_id`/`business_id`, record-sale,
     * API-CONTRACT §1.5): the membership check then waits for the parsed body (preValidation).
     */
    businessInBody?: boolean;
    /**
     * The route's first read, sent with the session check on the same connection in one write
     * (issue 20). It runs before the caller is known to be allowed: the route gets its rows
     * (takeFirstRead) only once the caller is, and never when the check refuses. Null when the
     * request gives no such read (input the route will refuse, or another plan for the read).
     */
    firstRead?: (req: FastifyRequest, businessId: string) => FirstRead | null;
  }
  interface FastifyRequest {
    auth: AuthUser | null;
    business: BusinessContext | null;
    /** The business the request names, before the caller is known to belong to it (for the refusal log). */
    requestedBusiness: string | null;
    /** The rows of the route's first read, once the session check let the caller in. */
    firstRead: { rows: Promise<Record<string, unknown>[]>; input: string } | null;
  }
  interface FastifyInstance {
    routeTable: RouteEntry[];
  }
}

/** A statement a route reads first, and the input it was built from (as JSON). */
export interface FirstRead {
  query: pg.QueryConfig;
  input: string;
}

/**
 * The rows of the route's first read, when it was sent with the session check for this same input
 * (the validated query, as JSON); null otherwise, and the route reads as usual. Taken once.
 */
export function takeFirstRead(req: FastifyRequest, input: string): Promise<Record<string, unknown>[]> | null {
  const read = req.firstRead;
  req.firstRead = null;
  return read && read.input === input ? read.rows : null;
}

export const API_PREFIX = '/api/v1';

/** Who signs the session tokens and for whom: a token of another issuer or audience is refused. */
export const JWT_ISSUER = 'mostrador';
export const JWT_AUDIENCE = 'mostrador-api';
const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
export const isUuid = (s: unknown): s is string => typeof s === 'string' && UUID_RE.test(s);

export const notMember = () => new AppError(403, 'NOT_MEMBER', 'No tenés acceso a este negocio.');

const ACCION_VERBO: Record<Accion, string> = { ver: 'ver', editar: 'editar', eliminar: 'eliminar', asignar: 'asignar' };

export function hasFullAccess(b: Pick<BusinessContext, 'isCreator' | 'rol' | 'accesoTotal'>): boolean {
  return b.isCreator || b.rol === 'admin' || b.accesoTotal;
}

/** Costs, margins and estimated profit: members need ver_costos (creator, admin and full access always). */
export const canSeeCosts = (b: BusinessContext) => hasFullAccess(b) || b.verCostos;
/** A line's price at the counter, and discounts over descuento_maximo, need cambiar_precios. */
export const canChangePrices = (b: BusinessContext) => hasFullAccess(b) || b.cambiarPrecios;
/** Selling on account over a customer's credit limit: full access or exceder_credito. */
export const canExceedCredit = (b: BusinessContext) => hasFullAccess(b) || b.excederCredito;
/**
 * Closing a turno: full access closes any; a member with cerrar_turno closes the turnos they
 * opened (`openedBy`), and no other.
 */
export const canCloseTurno = (b: BusinessContext, userId: string, openedBy: string | null) =>
  hasFullAccess(b) || (b.cerrarTurno && openedBy === userId);
/** Arqueo a ciegas: what the caja should hold is hidden from this member while a turno is open. */
export const blindCount = (b: BusinessContext) => b.arqueoCiego && !hasFullAccess(b);
/** The largest discount in % a member may give without cambiar_precios; null: no limit. */
export const maxDiscount = (b: BusinessContext) => (canChangePrices(b) ? null : b.descuentoMaximo);

/** The module check of API-CONTRACT §1.5, for routes and for service-level rules. */
export function assertCan(b: BusinessContext, modulo: Modulo, accion: Accion): void {
  if (hasFullAccess(b) || b.permisos[permissionKey(accion, modulo)] === true) return;
  throw new AppError(403, 'FORBIDDEN', `No tenés permisos para ${ACCION_VERBO[accion]} ${modulo}.`, {
    modulo,
    accion,
  });
}

// One round trip: session, user, and (for business routes) membership and settings.
const SQL_SESSION = `
  SELECT u.id, u.email, u.nombre
    FROM sessions s JOIN users u ON u.id = s.user_id
   WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3`;
const SQL_SESSION_BUSINESS = `
  SELECT u.id, u.email, u.nombre,
         m.id AS membership_id, m.rol, m.estado, m.acceso_total, m.permisos,
         m.ver_costos, m.cambiar_precios, m.exceder_credito, m.descuento_maximo::float8 AS descuento_maximo,
         m.cerrar_turno, coalesce(t.arqueo_ciego, true) AS arqueo_ciego,
         (b.creada_por = u.id) AS is_creator, b.plan, b.trial_ends_at,
         coalesce(t.timezone, 'America/Argentina/Buenos_Aires') AS timezone,
         coalesce(t.locale, 'es-AR') AS locale, coalesce(t.currency, 'ARS') AS currency
    FROM sessions s
    JOIN users u ON u.id = s.user_id
    LEFT JOIN business_members m ON m.business_id = $4 AND m.user_id = u.id
    LEFT JOIN businesses b ON b.id = m.business_id
    LEFT JOIN tenant_settings t ON t.business_id = m.business_id
   WHERE s.id = $1 AND s.user_id = $2 AND s.revoked_at IS NULL AND s.expires_at > $3`;

interface Row {
  id: string;
  email: string;
  nombre: string;
  membership_id?: string | null;
  rol?: 'admin' | 'empleado';
  estado?: 'pendiente' | 'aceptado' | 'rechazado' | null;
  acceso_total?: boolean;
  permisos?: PermissionMap;
  ver_costos?: boolean;
  cambiar_precios?: boolean;
  exceder_credito?: boolean;
  cerrar_turno?: boolean;
  arqueo_ciego?: boolean;
  descuento_maximo?: number | null;
  is_creator?: boolean;
  timezone?: string;
  locale?: string;
  currency?: string;
  plan?: PlanId;
  trial_ends_at?: Date;
}

function bearer(req: FastifyRequest): string | null {
  const h = req.headers.authorization;
  if (!h) return null;
  const m = /^Bearer\s+(\S+)$/i.exec(h);
  return m ? m[1] : null;
}

const SQL_ONLY_BUSINESS = `
  SELECT business_id FROM business_members WHERE user_id = $1 AND estado = 'aceptado' LIMIT 2`;

/**
 * The business of a request: the path's {id} under /businesses/:id; for the global routes
 * (/ventas/*), negocio_id or business_id in the query, else X-Business-Id, else the caller's
 * only business (API-CONTRACT §1.5).
 */
async function businessIdOf(req: FastifyRequest, userId: string, query: QueryFn): Promise<string> {
  const params = req.params as Record<string, string> | undefined;
  if (req.routeOptions.url?.startsWith(`${API_PREFIX}/businesses/:id`)) return params?.id ?? '';
  const q = (req.query ?? {}) as Record<string, unknown>;
  const body = (
    req.routeOptions.config?.businessInBody && req.body && typeof req.body === 'object' ? req.body : {}
  ) as Record<string, unknown>;
  const given = [q.negocio_id, q.business_id, body.negocio_id, body.business_id, req.headers['x-business-id']]
    .filter((v) => typeof v === 'string' && v !== '')
    .map(String);
  const distinct = [...new Set(given)];
  if (distinct.length > 1) throw invalid('negocio_id', 'El negocio indicado es ambiguo.');
  if (distinct.length === 1) return distinct[0];
  const { rows } = await todosLosNegocios('el único negocio del usuario: sus membresías', () =>
    query<{ business_id: string }>(SQL_ONLY_BUSINESS, [userId]),
  );
  if (rows.length === 0) throw notMember();
  if (rows.length > 1) {
    throw invalid('negocio_id', 'Indicá el negocio (negocio_id): pertenecés a más de un negocio.', 'BUSINESS_REQUIRED');
  }
  return rows[0].business_id;
}

type QueryFn = <T extends object>(text: string, values: unknown[]) => Promise<{ rows: T[] }>;

interface VerifiedClaims {
  sub: string;
  sid: string;
  exp?: number;
  nbf?: number;
}

/**
 * Tokens whose signature was already checked (issue 20: the HMAC through WebCrypto cost each
 * request ~2 ms of the event loop). Only the signature is remembered: the time claims are checked
 * again on every request as jose does, and the session, user and membership are still read from
 * the database each time, so a logout or a revoked session is refused at once.
 */
class VerifiedTokens {
  private readonly tokens = new Map<string, VerifiedClaims>();
  constructor(private readonly max = 10_000) {}

  get(token: string, now: Date): VerifiedClaims | null {
    const c = this.tokens.get(token);
    if (!c) return null;
    const seconds = Math.floor(now.getTime() / 1000);
    if ((c.exp !== undefined && c.exp <= seconds) || (c.nbf !== undefined && c.nbf > seconds)) return null;
    return c;
  }

  set(token: string, claims: VerifiedClaims) {
    // The oldest entry goes first when full (a Map keeps insertion order).
    if (this.tokens.size >= this.max) this.tokens.delete(this.tokens.keys().next().value!);
    this.tokens.set(token, claims);
  }
}

export interface AccessOptions {
  jwtKey: Uint8Array;
}

export const accessPlugin = fp<AccessOptions>(async (app: FastifyInstance, opts) => {
  app.decorate('routeTable', [] as RouteEntry[]);
  app.decorateRequest('auth', null);
  app.decorateRequest('business', null);
  app.decorateRequest('requestedBusiness', null);
  app.decorateRequest('firstRead', null);

  app.addHook('onRoute', (route: RouteOptions) => {
    if (!route.url.startsWith(API_PREFIX)) return;
    const acc = route.config?.access;
    if (!acc) throw new Error(`La ruta ${route.method} ${route.url} no declara su acceso.`);
    const scoped = route.url.startsWith(`${API_PREFIX}/businesses/:id`);
    if (scoped && (acc.kind === 'public' || acc.kind === 'user')) {
      throw new Error(`La ruta ${route.method} ${route.url} es de un negocio y debe verificar la membresía.`);
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) {
      if (method === 'HEAD') continue;
      app.routeTable.push({ method, url: route.url, access: acc, plan: route.config?.plan ?? {} });
    }
  });

  const pool = () => app.db.pool;
  /** One round trip: the session and, for business routes, the membership, plan and settings. */
  async function lookup(sid: string, sub: string, now: Date, businessId?: string): Promise<Row | undefined> {
    const { rows } = businessId
      ? await enNegocio(businessId, () => pool().query<Row>(SQL_SESSION_BUSINESS, [sid, sub, now, businessId]))
      : await pool().query<Row>(SQL_SESSION, [sid, sub, now]);
    return rows[0];
  }

  /**
   * The session and business lookup and the route's first read, on one pooled connection: the pool
   * pipelines them, and with the socket corked both go out in one write, so PostgreSQL is woken
   * once per request instead of twice (issue 20). The read's rows wait for the checks to pass.
   */
  async function lookupAndRead(
    sid: string,
    sub: string,
    now: Date,
    businessId: string,
    read: FirstRead,
  ): Promise<{ row: Row | undefined; firstRows: Promise<Record<string, unknown>[]> }> {
    const client = await pool().connect();
    const [session, first] = corked(client, () =>
      enNegocio(
        businessId,
        () =>
          [
            client.query<Row>(SQL_SESSION_BUSINESS, [sid, sub, now, businessId]),
            client.query<Record<string, unknown>>(read.query),
          ] as const,
      ),
    );
    // The connection goes back once both have answered; an error PostgreSQL reports (it has a
    // code) leaves it usable, any other one (a lost connection) discards it.
    void Promise.allSettled([session, first]).then((results) => {
      const failed = results.find(
        (r): r is PromiseRejectedResult => r.status === 'rejected' && !(r.reason as { code?: string })?.code,
      );
      client.release(failed ? (failed.reason as Error) : undefined);
    });
    const rows = first.then((r) => r.rows);
    rows.catch(() => {
      // Read by the route if it runs; an error it never reads is of no one's concern.
    });
    const { rows: found } = await session;
    return { row: found[0], firstRows: rows };
  }

  const verified = new VerifiedTokens();

  async function verifyToken(req: FastifyRequest, now: Date) {
    const token = bearer(req);
    if (!token) throw unauthenticated();
    const known = verified.get(token, now);
    if (known) return known;
    let claims: VerifiedClaims;
    try {
      const { payload } = await jwtVerify(token, opts.jwtKey, {
        algorithms: ['HS256'],
        issuer: JWT_ISSUER,
        audience: JWT_AUDIENCE,
        requiredClaims: ['exp'],
        currentDate: now,
      });
      if (typeof payload.sub !== 'string' || typeof payload.sid !== 'string') throw new Error('claims');
      claims = { sub: payload.sub, sid: payload.sid, exp: payload.exp, nbf: payload.nbf };
    } catch {
      throw unauthenticated();
    }
    if (!isUuid(claims.sub) || !isUuid(claims.sid)) throw unauthenticated();
    verified.set(token, claims);
    return claims;
  }

  app.addHook('onRequest', async (req) => {
    const acc = req.routeOptions.config?.access;
    if (!acc || acc.kind === 'public') return;
    // 401 before anything else; the business of a body-scoped route is checked once the body is parsed.
    if (req.routeOptions.config?.businessInBody) await verifyToken(req, app.services.now());
    else await authorize(req, acc);
  });

  app.addHook('preValidation', async (req) => {
    const acc = req.routeOptions.config?.access;
    if (acc && acc.kind !== 'public' && req.routeOptions.config?.businessInBody) await authorize(req, acc);
  });

  // Everything after the checks (validation, the route, its answer) sees only the rows of the
  // request's business (row-level security, db/tenant.ts). A callback hook after the checks, so
  // that the rest of the request runs inside it; not earlier: the body's stream events, parsed
  // before this stage, would not carry it.
  app.addHook('preValidation', (req, _reply, done) => {
    if (req.business) enNegocio(req.business.id, done);
    else done();
  });

  async function authorize(req: FastifyRequest, acc: Access) {
    const now = app.services.now();
    const { sub, sid } = await verifyToken(req, now);
    const query: QueryFn = (text, values) => pool().query(text, values);
    const businessId = acc.kind === 'user' ? undefined : await businessIdOf(req, sub, query);
    const scoped = businessId !== undefined;
    if (scoped && isUuid(businessId)) req.requestedBusiness = businessId;
    if (scoped && !isUuid(businessId)) {
      // Authenticate first (401 before 403), then refuse the malformed business id: as a business
      // the caller cannot access in the path, as invalid input in a query, body or header (§1.2).
      if (!(await lookup(sid, sub, now))) throw unauthenticated();
      if (req.routeOptions.url?.startsWith(`${API_PREFIX}/businesses/:id`)) throw notMember();
      throw invalid('negocio_id', 'Identificador no válido.');
    }
    const first = scoped ? (req.routeOptions.config?.firstRead?.(req, businessId) ?? null) : null;
    const found =
      first && scoped
        ? await lookupAndRead(sid, sub, now, businessId, first)
        : { row: await lookup(sid, sub, now, scoped ? businessId : undefined), firstRows: null };
    const row = found.row;
    if (!row) throw unauthenticated();
    req.auth = { id: row.id, sessionId: sid, email: row.email, nombre: row.nombre };
    if (!scoped) return;

    if (!row.membership_id || row.estado === 'rechazado') throw notMember();
    if (row.estado === 'pendiente') {
      throw new AppError(403, 'MEMBERSHIP_PENDING', 'Tu acceso a este negocio está pendiente de aprobación.');
    }
    const { estado, readOnlyUntil } = planState(row.plan!, row.trial_ends_at!, now, app.services.modo);
    const ctx: BusinessContext = {
      id: businessId,
      membershipId: row.membership_id,
      rol: row.rol!,
      accesoTotal: row.acceso_total!,
      isCreator: row.is_creator === true,
      permisos: row.permisos!,
      verCostos: row.ver_costos === true,
      cambiarPrecios: row.cambiar_precios === true,
      excederCredito: row.exceder_credito === true,
      cerrarTurno: row.cerrar_turno === true,
      arqueoCiego: row.arqueo_ciego !== false,
      descuentoMaximo: row.descuento_maximo ?? null,
      timezone: row.timezone!,
      locale: row.locale!,
      currency: row.currency!,
      plan: row.plan!,
      planEstado: estado,
    };
    req.business = ctx;

    if (acc.kind === 'admin' && !(ctx.isCreator || ctx.rol === 'admin')) {
      throw new AppError(403, 'ADMIN_REQUIRED', 'Solo un administrador del negocio puede realizar esta acción.');
    }
    if (acc.kind === 'creator' && !ctx.isCreator) throw new AppError(403, 'FORBIDDEN', acc.message);
    if (acc.kind === 'module') {
      assertCan(ctx, acc.modulo, acc.accion);
      if (acc.costos && !canSeeCosts(ctx)) throw new AppError(403, 'FORBIDDEN', acc.costos);
    }
    assertPlanAllows(req, estado, readOnlyUntil, ctx.timezone);
    if (first && found.firstRows) req.firstRead = { rows: found.firstRows, input: first.input };
  }

  // Whatever a request with a token gets back (data or an error) is nobody else's to cache.
  app.addHook('onSend', async (req, reply) => {
    if (req.auth || bearer(req)) reply.header('Cache-Control', 'no-store');
  });
});

/**
 * The methods the API offers on a concrete path (`/api/v1/businesses/<uuid>/products`), from the
 * route table: a request with another method is answered 405 rather than 404 (API-CONTRACT §1.3).
 */
export function methodsOn(table: RouteEntry[], pathname: string): string[] {
  const segments = pathname.replace(/\/+$/, '').split('/');
  const matches = (url: string) => {
    const pattern = url.replace(/\/+$/, '').split('/');
    return pattern.length === segments.length && pattern.every((p, i) => p.startsWith(':') || p === segments[i]);
  };
  return [...new Set(table.filter((r) => matches(r.url)).map((r) => r.method))];
}

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Spreadsheet exports keep working in every state: the owner can always take their data out. */
function isExport(req: FastifyRequest): boolean {
  const path = req.url.split('?')[0].replace(/\/+$/, '');
  return (
    req.method === 'GET' && (path.endsWith('/exportar') || (req.query as { formato?: string })?.formato === 'xlsx')
  );
}

/** The 402 checks of API-CONTRACT §1.6, after membership and permission. */
function assertPlanAllows(req: FastifyRequest, estado: PlanEstado, readOnlyUntil: Date, timezone: string) {
  const rule = req.routeOptions.config?.plan ?? {};
  if (estado === 'bloqueada' && rule.blocked !== 'allow' && !isExport(req)) {
    throw new AppError(
      402,
      'BLOCKED',
      'El período de solo lectura terminó. Elegí un plan para volver a usar este negocio.',
    );
  }
  if (estado === 'solo_lectura' && WRITES.has(req.method) && rule.readOnly !== 'allow') {
    throw new AppError(
      402,
      'READ_ONLY',
      `Tu período de prueba terminó. El negocio está en modo solo lectura hasta el ${formatDateEs(readOnlyUntil, timezone)}; elegí un plan para volver a registrar datos.`,
    );
  }
}

/** The authenticated user of a route whose access is not public. */
export function authOf(req: FastifyRequest): AuthUser {
  if (!req.auth) throw unauthenticated();
  return req.auth;
}

/** The business context of a route under /businesses/:id. */
export function businessOf(req: FastifyRequest): BusinessContext {
  if (!req.business) throw notMember();
  return req.business;
}
