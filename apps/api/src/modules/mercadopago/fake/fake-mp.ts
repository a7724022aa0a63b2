import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A fake Mercado Pago on loopback (issue 34, decision 0052): the part of MP's REST API the counter
 * uses, as strict as MP's reference says — Bearer token required and tied to an account,
 * X-Idempotency-Key required on creates, cancels and refunds (same key and body: the same answer;
 * another body: 409), amounts as strings with two decimals, unknown properties refused — and the
 * webhooks MP sends, signed with the account's secret (x-signature `ts=…,v1=…`, HMAC-SHA256 of
 * `id:<data.id>;request-id:<x-request-id>;ts:<ts>;`). Its state lives in memory.
 *
 * Switches (POST /_fake, or the CLI's flags): lento_ms (every answer arrives that late, its work done), caido (every API call
 * answers 500), rechazar (a customer's payment is declined), expira_ms (new orders expire after that
 * long), perder_notificaciones, duplicar_notificaciones, comision_porcentaje. The customer:
 * POST /_fake/ordenes/{id}/pagar, /rechazar, /expirar; POST /_fake/pagos {access_token, monto}
 * (a payment outside any order, e.g. to the account's printed QR); POST /_fake/cuentas
 * {access_token, webhook_url?, webhook_secret?, pos?, terminales?}; POST /_fake/reset.
 */

export interface FakeSwitches {
  lento_ms: number;
  caido: boolean;
  rechazar: boolean;
  expira_ms: number | null;
  perder_notificaciones: boolean;
  duplicar_notificaciones: boolean;
  comision_porcentaje: number;
}

const DEFAULT_SWITCHES: FakeSwitches = {
  lento_ms: 0,
  caido: false,
  rechazar: false,
  expira_ms: null,
  perder_notificaciones: false,
  duplicar_notificaciones: false,
  comision_porcentaje: 3.25,
};

export interface FakeCuenta {
  token: string;
  userId: number;
  nickname: string;
  webhookUrl: string | null;
  webhookSecret: string | null;
  pos: { id: number; name: string; external_id: string }[];
  terminales: { id: string; external_pos_id: string | null; operating_mode: 'PDV' | 'STANDALONE' }[];
}

interface FakePayment {
  id: number;
  userId: number;
  status: 'approved' | 'refunded';
  status_detail: string;
  date_created: string;
  date_approved: string;
  external_reference: string | null;
  transaction_amount: number;
  transaction_amount_refunded: number;
  fee_details: { type: string; amount: number; fee_payer: string }[];
  transaction_details: { net_received_amount: number; total_paid_amount: number };
  order: { id: string; type: string } | null;
}

export interface FakeOrder {
  userId: number;
  order: Record<string, unknown> & {
    id: string;
    type: 'qr' | 'point';
    status: string;
    status_detail: string;
    external_reference: string;
    total_amount: string;
    transactions: { payments: Record<string, unknown>[]; refunds?: Record<string, unknown>[] };
  };
  /** Payments API id once paid. */
  paymentId: number | null;
}

/** A notification as the fake sends it (the tests deliver it themselves with `deliver`). */
export interface FakeNotification {
  url: string;
  path: string;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

const ULID = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';
const ulid = (prefix: string) =>
  prefix +
  [...randomBytes(24)]
    .slice(0, 24)
    .map((b) => ULID[b % 32])
    .join('');
const AMOUNT_RE = /^\d{1,13}\.\d{2}$/;
const REF_RE = /^[A-Za-z0-9_-]{1,64}$/;
const DURATION_RE = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+)S)?$/;
const cents = (s: string) => Math.round(Number(s) * 100);
const amount = (c: number) => `${Math.floor(c / 100)}.${String(c % 100).padStart(2, '0')}`;
const isoNow = () => new Date().toISOString();

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
const bad = (code: string, message: string) => new HttpError(400, code, message);

function durationMs(s: string): number | null {
  const m = DURATION_RE.exec(s);
  if (!m || s === 'PT') return null;
  return (Number(m[1] ?? 0) * 3600 + Number(m[2] ?? 0) * 60 + Number(m[3] ?? 0)) * 1000;
}

function only(obj: Record<string, unknown>, allowed: string[], where: string) {
  const extra = Object.keys(obj).filter((k) => !allowed.includes(k));
  if (extra.length) throw bad('unsupported_properties', `unsupported properties in ${where}: ${extra.join(', ')}`);
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export class FakeMercadoPago {
  switches: FakeSwitches = { ...DEFAULT_SWITCHES };
  readonly cuentas = new Map<string, FakeCuenta>();
  readonly orders = new Map<string, FakeOrder>();
  readonly payments = new Map<number, FakePayment>();
  /** X-Idempotency-Key → the request's body and the answer it got, per account. */
  private readonly idempotency = new Map<string, { body: string; status: number; answer: unknown }>();
  /** Every request the API received, for the tests (method, path, headers, body). */
  readonly requests: { method: string; path: string; headers: IncomingMessage['headers']; body: unknown }[] = [];
  /** Notifications built (sent or lost), for the tests. */
  readonly notifications: FakeNotification[] = [];
  /** Delivers a notification; by default an HTTP POST to the account's webhook URL. */
  deliver: (n: FakeNotification) => Promise<void> = async (n) => {
    await fetch(n.url + n.path, {
      method: 'POST',
      headers: n.headers,
      body: JSON.stringify(n.body),
      signal: AbortSignal.timeout(10_000),
    }).catch(() => undefined);
  };
  private readonly inFlight = new Set<Promise<void>>();
  private readonly timers = new Set<NodeJS.Timeout>();
  private server: Server | null = null;
  private nextUser = 100_000_001;
  private nextPayment = 120_000_000_001;
  url = '';

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    this.url = `http://${host}:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async close(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  /** Waits until every notification under way was delivered. */
  async idle(): Promise<void> {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  setSwitches(s: Partial<FakeSwitches>) {
    this.switches = { ...this.switches, ...s };
  }

  reset() {
    this.switches = { ...DEFAULT_SWITCHES };
  }

  /** An MP account with its access token, points of sale and terminals (what MP's panel holds). */
  cuenta(
    token: string,
    o: {
      nickname?: string;
      webhook_url?: string | null;
      webhook_secret?: string | null;
      pos?: string[];
      terminales?: (string | { id: string; modo?: 'PDV' | 'STANDALONE' })[];
    } = {},
  ): FakeCuenta {
    const prev = this.cuentas.get(token);
    const userId = prev?.userId ?? this.nextUser++;
    const c: FakeCuenta = {
      token,
      userId,
      nickname: o.nickname ?? prev?.nickname ?? `COMERCIO${userId}`,
      webhookUrl: o.webhook_url === undefined ? (prev?.webhookUrl ?? null) : o.webhook_url,
      webhookSecret: o.webhook_secret === undefined ? (prev?.webhookSecret ?? null) : o.webhook_secret,
      pos: (o.pos ?? prev?.pos.map((p) => p.external_id) ?? []).map((external_id, i) => ({
        id: userId * 100 + i,
        name: `Caja ${i + 1}`,
        external_id,
      })),
      terminales: o.terminales
        ? o.terminales.map((t) =>
            typeof t === 'string'
              ? { id: t, external_pos_id: null, operating_mode: 'PDV' as const }
              : { id: t.id, external_pos_id: null, operating_mode: t.modo ?? 'PDV' },
          )
        : (prev?.terminales ?? []),
    };
    this.cuentas.set(token, c);
    return c;
  }

  /** The order MP holds (its current answer), or undefined. */
  order(id: string) {
    return this.orders.get(id)?.order;
  }

  /* ---------------------------------------------------------------- the customer */

  /**
   * The customer pays. `tarde`: the race where MP approves an order it had just reported
   * cancelled or expired (the counter must give that money back).
   */
  pagar(id: string, o2: { tarde?: boolean } = {}) {
    const o = this.orders.get(id);
    if (!o) throw new HttpError(404, 'order_not_found', 'order not found');
    if (!o2.tarde && !['created', 'at_terminal', 'action_required'].includes(o.order.status)) {
      throw new HttpError(409, 'invalid_status', `order is ${o.order.status}`);
    }
    if (this.switches.rechazar && !o2.tarde) return this.rechazar(id);
    const pay = o.order.transactions.payments[0];
    const c = cents(pay.amount as string);
    const fee = Math.round((c * this.switches.comision_porcentaje) / 100);
    const paymentId = this.nextPayment++;
    const now = isoNow();
    this.payments.set(paymentId, {
      id: paymentId,
      userId: o.userId,
      status: 'approved',
      status_detail: 'accredited',
      date_created: now,
      date_approved: now,
      external_reference: o.order.external_reference,
      transaction_amount: c / 100,
      transaction_amount_refunded: 0,
      fee_details: [{ type: 'mercadopago_fee', amount: fee / 100, fee_payer: 'collector' }],
      transaction_details: { net_received_amount: (c - fee) / 100, total_paid_amount: c / 100 },
      order: { id: o.order.id, type: o.order.type },
    });
    o.paymentId = paymentId;
    Object.assign(pay, {
      status: 'processed',
      status_detail: 'accredited',
      paid_amount: pay.amount,
      reference: { id: String(paymentId) },
      payment_method:
        o.order.type === 'point'
          ? { id: 'debvisa', type: 'debit_card' }
          : { id: 'account_money', type: 'account_money' },
    });
    this.move(o, 'processed', 'accredited', { total_paid_amount: pay.amount });
    return o.order;
  }

  rechazar(id: string) {
    const o = this.orders.get(id);
    if (!o) throw new HttpError(404, 'order_not_found', 'order not found');
    if (!['created', 'at_terminal', 'action_required'].includes(o.order.status)) {
      throw new HttpError(409, 'invalid_status', `order is ${o.order.status}`);
    }
    Object.assign(o.order.transactions.payments[0], { status: 'failed', status_detail: 'rejected_by_issuer' });
    this.move(o, 'failed', 'failed');
    return o.order;
  }

  expirar(id: string) {
    const o = this.orders.get(id);
    if (!o) throw new HttpError(404, 'order_not_found', 'order not found');
    if (o.order.status !== 'created' && o.order.status !== 'at_terminal') return o.order;
    Object.assign(o.order.transactions.payments[0], { status: 'expired', status_detail: 'expired' });
    this.move(o, 'expired', 'expired');
    return o.order;
  }

  /** A payment to the account outside any order (its printed QR, a link): MP's money without a sale. */
  pagoSuelto(token: string, montoCents: number) {
    const c = this.cuentas.get(token);
    if (!c) throw new HttpError(404, 'not_found', 'account not found');
    const fee = Math.round((montoCents * this.switches.comision_porcentaje) / 100);
    const id = this.nextPayment++;
    const now = isoNow();
    this.payments.set(id, {
      id,
      userId: c.userId,
      status: 'approved',
      status_detail: 'accredited',
      date_created: now,
      date_approved: now,
      external_reference: null,
      transaction_amount: montoCents / 100,
      transaction_amount_refunded: 0,
      fee_details: [{ type: 'mercadopago_fee', amount: fee / 100, fee_payer: 'collector' }],
      transaction_details: { net_received_amount: (montoCents - fee) / 100, total_paid_amount: montoCents / 100 },
      order: null,
    });
    return this.payments.get(id)!;
  }

  /* ---------------------------------------------------------------- the state */

  private move(o: FakeOrder, status: string, detail: string, extra: Record<string, unknown> = {}) {
    Object.assign(o.order, { status, status_detail: detail, last_updated_date: isoNow(), ...extra });
    this.notify(o, `order.${status === 'canceled' ? 'canceled' : status}`);
  }

  private notify(o: FakeOrder, action: string) {
    const cuenta = [...this.cuentas.values()].find((c) => c.userId === o.userId);
    if (!cuenta?.webhookUrl) return;
    const requestId = randomUUID();
    const ts = String(Date.now());
    const dataId = o.order.id;
    const manifest = `id:${dataId.toLowerCase()};request-id:${requestId};ts:${ts};`;
    const v1 = createHmac('sha256', cuenta.webhookSecret ?? '')
      .update(manifest)
      .digest('hex');
    const n: FakeNotification = {
      url: cuenta.webhookUrl,
      path: `?data.id=${encodeURIComponent(dataId)}&type=order`,
      headers: {
        'content-type': 'application/json',
        'x-request-id': requestId,
        'x-signature': `ts=${ts},v1=${v1}`,
      },
      body: {
        action,
        api_version: 'v1',
        application_id: '1234567890',
        date_created: isoNow(),
        live_mode: false,
        type: 'order',
        user_id: String(o.userId),
        data: {
          id: dataId,
          external_reference: o.order.external_reference,
          status: o.order.status,
          status_detail: o.order.status_detail,
          total_amount: o.order.total_amount,
          type: o.order.type,
        },
      },
    };
    this.notifications.push(n);
    if (this.switches.perder_notificaciones) return;
    const times = this.switches.duplicar_notificaciones ? 2 : 1;
    for (let i = 0; i < times; i++) {
      const p: Promise<void> = new Promise<void>((r) => setImmediate(r))
        .then(() => this.deliver(n))
        .catch(() => undefined)
        .finally(() => this.inFlight.delete(p));
      this.inFlight.add(p);
    }
  }

  /* ---------------------------------------------------------------- HTTP */

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    const u = new URL(req.url ?? '/', 'http://fake');
    const method = req.method ?? 'GET';
    const json = (status: number, v: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(v));
    };
    try {
      if (u.pathname.startsWith('/_fake')) return json(200, this.control(method, u.pathname, raw));
      let body: unknown;
      try {
        body = raw ? JSON.parse(raw) : undefined;
      } catch {
        throw bad('json_syntax_error', 'invalid JSON');
      }
      this.requests.push({ method, path: u.pathname + u.search, headers: req.headers, body });
      if (this.switches.caido) throw new HttpError(500, 'internal_error', 'internal server error');
      const out = this.api(method, u, req.headers, raw, body);
      // Slow: the work is done at once, the answer arrives late (a client's deadline may pass first).
      if (this.switches.lento_ms > 0) await new Promise((r) => setTimeout(r, this.switches.lento_ms));
      return json(out.status, out.body);
    } catch (e) {
      if (e instanceof HttpError) {
        return json(e.status, {
          errors: [{ code: e.code, message: e.message, details: [] }],
          message: e.message,
          status: e.status,
        });
      }
      return json(500, { errors: [{ code: 'internal_error', message: (e as Error).message }] });
    }
  }

  private account(headers: IncomingMessage['headers']): FakeCuenta {
    const m = /^Bearer (\S+)$/.exec(headers.authorization ?? '');
    const c = m ? this.cuentas.get(m[1]) : undefined;
    if (!c) throw new HttpError(401, 'unauthorized', 'invalid access token');
    return c;
  }

  /** The same key with the same body answers the first answer; another body is refused. */
  private idempotent(
    c: FakeCuenta,
    headers: IncomingMessage['headers'],
    scope: string,
    raw: string,
    run: () => { status: number; body: unknown },
  ) {
    const key = headers['x-idempotency-key'];
    if (typeof key !== 'string' || !key.trim()) {
      throw bad('empty_required_header', 'The X-Idempotency-Key header is required and was not sent.');
    }
    const k = `${c.userId}|${key}`;
    const prev = this.idempotency.get(k);
    const fingerprint = `${scope}|${raw}`;
    if (prev) {
      if (prev.body !== fingerprint) {
        throw new HttpError(
          409,
          'idempotency_key_already_used',
          'The idempotency key was already used with another request.',
        );
      }
      return { status: prev.status, body: prev.answer };
    }
    const out = run();
    this.idempotency.set(k, { body: fingerprint, status: out.status, answer: structuredClone(out.body) });
    return out;
  }

  private api(method: string, u: URL, headers: IncomingMessage['headers'], raw: string, body: unknown) {
    const c = this.account(headers);
    const p = u.pathname.replace(/\/+$/, '');
    if (method === 'GET' && p === '/users/me') {
      return {
        status: 200,
        body: { id: c.userId, nickname: c.nickname, email: `${c.nickname.toLowerCase()}@ejemplo.com`, site_id: 'MLA' },
      };
    }
    if (method === 'GET' && p === '/pos') {
      return {
        status: 200,
        body: {
          paging: { total: c.pos.length, offset: 0, limit: 50 },
          results: c.pos.map((x) => ({ ...x, store_id: String(c.userId), fixed_amount: false, category: null })),
        },
      };
    }
    if (method === 'GET' && p === '/terminals/v1/list') {
      return {
        status: 200,
        body: {
          data: {
            terminals: c.terminales.map((t) => ({ ...t, pos_id: String(c.userId * 100), store_id: String(c.userId) })),
          },
          paging: { total: c.terminales.length, offset: 0, limit: 50 },
        },
      };
    }
    if (method === 'POST' && p === '/v1/orders') {
      return this.idempotent(c, headers, 'create', raw, () => ({ status: 201, body: this.create(c, body) }));
    }
    if (method === 'GET' && p === '/v1/payments/search') return { status: 200, body: this.search(c, u.searchParams) };
    const m = /^\/v1\/orders\/([^/]+)(?:\/(cancel|refund))?$/.exec(p);
    if (m) {
      const o = this.orders.get(decodeURIComponent(m[1]));
      if (!o || o.userId !== c.userId) throw new HttpError(404, 'order_not_found', 'order not found');
      if (method === 'GET' && !m[2]) return { status: 200, body: o.order };
      if (method === 'POST' && m[2] === 'cancel') {
        return this.idempotent(c, headers, `cancel|${o.order.id}`, raw, () => {
          if (o.order.status !== 'created') {
            throw new HttpError(
              409,
              'cannot_cancel_order',
              `The order cannot be canceled in status ${o.order.status}.`,
            );
          }
          Object.assign(o.order.transactions.payments[0], { status: 'canceled', status_detail: 'canceled_by_api' });
          this.move(o, 'canceled', 'canceled');
          return { status: 200, body: o.order };
        });
      }
      if (method === 'POST' && m[2] === 'refund') {
        return this.idempotent(c, headers, `refund|${o.order.id}`, raw, () => ({
          status: 201,
          body: this.refund(o, body),
        }));
      }
    }
    throw new HttpError(404, 'not_found', `no route for ${method} ${p}`);
  }

  private create(c: FakeCuenta, body: unknown) {
    if (!isObject(body))
      throw bad('required_properties', 'missing properties: type, external_reference, transactions, config');
    only(
      body,
      [
        'type',
        'external_reference',
        'expiration_time',
        'description',
        'total_amount',
        'transactions',
        'config',
        'items',
        'processing_mode',
      ],
      'order',
    );
    const type = body.type;
    if (type !== 'qr' && type !== 'point') throw bad('property_value', 'type must be qr or point');
    const ref = body.external_reference;
    if (typeof ref !== 'string' || !REF_RE.test(ref))
      throw bad('property_value', 'external_reference: 1-64 letters, digits, - or _');
    const tx = body.transactions;
    if (!isObject(tx) || !Array.isArray(tx.payments) || tx.payments.length !== 1) {
      throw bad('property_value', 'transactions.payments must hold exactly one payment');
    }
    only(tx, ['payments'], 'transactions');
    const pay = tx.payments[0] as unknown;
    if (!isObject(pay)) throw bad('property_type', 'transactions.payments[0] must be an object');
    only(pay, ['amount'], 'transactions.payments[0]');
    if (typeof pay.amount !== 'string' || !AMOUNT_RE.test(pay.amount) || cents(pay.amount) <= 0) {
      throw bad('property_value', 'transactions.payments[0].amount must be a positive string with two decimals');
    }
    if (
      body.total_amount !== undefined &&
      (typeof body.total_amount !== 'string' || !AMOUNT_RE.test(body.total_amount))
    ) {
      throw bad('property_value', 'total_amount must be a string with two decimals');
    }
    if (body.total_amount !== undefined && body.total_amount !== pay.amount) {
      throw bad('property_value', 'total_amount must equal the sum of the payments');
    }
    let expiresMs = 15 * 60_000;
    if (body.expiration_time !== undefined) {
      const d = typeof body.expiration_time === 'string' ? durationMs(body.expiration_time) : null;
      if (d === null || d < 30_000 || d > 3 * 3600_000) throw bad('property_value', 'expiration_time: PT30S to PT3H');
      expiresMs = d;
    }
    const cfg = body.config;
    if (!isObject(cfg)) throw bad('required_properties', 'missing properties: config');
    let qrData: string | undefined;
    if (type === 'qr') {
      only(cfg, ['qr'], 'config');
      const qr = cfg.qr;
      if (!isObject(qr) || typeof qr.external_pos_id !== 'string')
        throw bad('required_properties', 'missing properties: config.qr.external_pos_id');
      only(qr, ['external_pos_id', 'mode'], 'config.qr');
      if (qr.mode !== undefined && !['static', 'dynamic', 'hybrid'].includes(qr.mode as string)) {
        throw bad('property_value', 'config.qr.mode: static, dynamic or hybrid');
      }
      if (!c.pos.some((x) => x.external_id === qr.external_pos_id))
        throw bad('property_value', 'config.qr.external_pos_id: no such point of sale');
      if (qr.mode === 'dynamic' || qr.mode === 'hybrid') {
        qrData = `00020101021243650016COM.MERCADOLIBRE0201306${ref}5204000053030325404${pay.amount}5802AR5909MOSTRADOR6004CABA63041234`;
      }
    } else {
      only(cfg, ['point'], 'config');
      const pt = cfg.point;
      if (!isObject(pt) || typeof pt.terminal_id !== 'string')
        throw bad('required_properties', 'missing properties: config.point.terminal_id');
      only(pt, ['terminal_id', 'print_on_terminal', 'ticket_number'], 'config.point');
      const t = c.terminales.find((x) => x.id === pt.terminal_id);
      if (!t)
        throw new HttpError(
          403,
          'forbidden_checking_terminal_owner',
          'The Point terminal does not belong to the user.',
        );
      if (t.operating_mode !== 'PDV') throw bad('property_value', 'the terminal is not in PDV mode');
    }
    const now = isoNow();
    const order: FakeOrder['order'] = {
      id: ulid('ORD01'),
      type,
      processing_mode: 'automatic',
      external_reference: ref,
      ...(typeof body.description === 'string' ? { description: body.description } : {}),
      total_amount: pay.amount,
      expiration_time: typeof body.expiration_time === 'string' ? body.expiration_time : 'PT15M',
      country_code: 'ARG',
      user_id: String(c.userId),
      status: 'created',
      status_detail: 'created',
      currency: 'ARS',
      created_date: now,
      last_updated_date: now,
      integration_data: { application_id: '1234567890' },
      transactions: {
        payments: [{ id: ulid('PAY01'), amount: pay.amount, status: 'created', status_detail: 'ready_to_process' }],
      },
      config: cfg,
      ...(qrData ? { type_response: { qr_data: qrData } } : {}),
    };
    const fo: FakeOrder = { userId: c.userId, order, paymentId: null };
    this.orders.set(order.id, fo);
    const ms = this.switches.expira_ms ?? expiresMs;
    const t = setTimeout(() => {
      this.timers.delete(t);
      this.expirar(order.id);
    }, ms);
    t.unref();
    this.timers.add(t);
    return order;
  }

  private refund(o: FakeOrder, body: unknown) {
    if (o.order.status !== 'processed') {
      throw new HttpError(409, 'cannot_refund_order', `The order cannot be refunded in status ${o.order.status}.`);
    }
    const pay = o.order.transactions.payments[0];
    const paid = cents(pay.amount as string);
    const before = cents((pay.refunded_amount as string | undefined) ?? '0.00');
    let c = paid - before;
    if (body !== undefined) {
      if (!isObject(body)) throw bad('property_type', 'body must be an object');
      only(body, ['transactions'], 'refund');
      const list = body.transactions;
      if (!Array.isArray(list) || list.length !== 1 || !isObject(list[0])) {
        throw bad('property_value', 'transactions must hold one payment to refund');
      }
      only(list[0], ['id', 'amount'], 'transactions[0]');
      if (list[0].id !== pay.id) throw bad('property_value', 'transactions[0].id: no such payment in the order');
      const a = list[0].amount;
      if (typeof a !== 'string' || !AMOUNT_RE.test(a) || cents(a) <= 0) {
        throw bad('property_value', 'transactions[0].amount must be a positive string with two decimals');
      }
      if (cents(a) > paid - before) throw bad('property_value', 'the amount exceeds what is left to refund');
      c = cents(a);
    }
    const total = before + c;
    pay.refunded_amount = amount(total);
    const r = {
      id: ulid('REF01'),
      transaction_id: pay.id,
      reference_id: String(o.paymentId ?? ''),
      amount: amount(c),
      status: 'processed',
    };
    o.order.transactions.refunds = [...(o.order.transactions.refunds ?? []), r];
    const payment = o.paymentId === null ? undefined : this.payments.get(o.paymentId);
    if (payment) {
      payment.transaction_amount_refunded = total / 100;
      if (total === paid) payment.status = 'refunded';
    }
    if (total === paid) {
      Object.assign(pay, { status: 'refunded', status_detail: 'refunded' });
      this.move(o, 'refunded', 'refunded');
    } else {
      Object.assign(o.order, { status_detail: 'partially_refunded', last_updated_date: isoNow() });
    }
    return o.order;
  }

  private search(c: FakeCuenta, q: URLSearchParams) {
    const begin = q.get('begin_date');
    const end = q.get('end_date');
    const limit = Number(q.get('limit') ?? 30);
    const offset = Number(q.get('offset') ?? 0);
    if (!Number.isInteger(limit) || limit < 1 || limit > 1000) throw bad('property_value', 'limit: 1 to 1000');
    if (!Number.isInteger(offset) || offset < 0) throw bad('property_value', 'offset must be >= 0');
    const range = q.get('range') ?? 'date_created';
    if (!['date_created', 'date_approved', 'date_last_updated', 'money_release_date'].includes(range)) {
      throw bad('property_value', 'range not supported');
    }
    const field = range === 'date_approved' ? 'date_approved' : 'date_created';
    const from = begin ? Date.parse(begin) : -Infinity;
    const to = end ? Date.parse(end) : Infinity;
    if (Number.isNaN(from) || Number.isNaN(to)) throw bad('property_value', 'begin_date and end_date: ISO 8601');
    const all = [...this.payments.values()]
      .filter((p) => p.userId === c.userId)
      .filter((p) => {
        const t = Date.parse(p[field]);
        return t >= from && t <= to;
      })
      .sort((a, b) => Date.parse(a[field]) - Date.parse(b[field]) || a.id - b.id);
    if (q.get('criteria') === 'desc') all.reverse();
    return {
      paging: { total: all.length, limit, offset },
      results: all.slice(offset, offset + limit).map((p) => {
        const { userId: _u, ...rest } = p;
        return { ...rest, currency_id: 'ARS', collector_id: c.userId, operation_type: 'regular_payment' };
      }),
    };
  }

  /* ---------------------------------------------------------------- control */

  private control(method: string, path: string, raw: string): unknown {
    const input = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
    const m = /^\/_fake\/ordenes\/([^/]+)\/(pagar|rechazar|expirar)$/.exec(path);
    if (method === 'POST' && m) {
      const id = decodeURIComponent(m[1]);
      return m[2] === 'pagar'
        ? this.pagar(id, { tarde: input.tarde === true })
        : m[2] === 'rechazar'
          ? this.rechazar(id)
          : this.expirar(id);
    }
    if (method === 'POST' && path === '/_fake/reset') this.reset();
    else if (method === 'POST' && path === '/_fake/cuentas') {
      const c = this.cuenta(String(input.access_token ?? ''), input as Parameters<FakeMercadoPago['cuenta']>[1]);
      return { access_token: c.token, user_id: c.userId, pos: c.pos, terminales: c.terminales };
    } else if (method === 'POST' && path === '/_fake/pagos') {
      return this.pagoSuelto(String(input.access_token ?? ''), cents(String(input.monto ?? '0')));
    } else if (method === 'POST' && path === '/_fake') this.setSwitches(input as Partial<FakeSwitches>);
    return { switches: this.switches, ordenes: this.orders.size, pagos: this.payments.size };
  }
}
