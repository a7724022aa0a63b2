/*
 * A small typed client of Mercado Pago's REST API, for what the counter uses (decision 0052):
 * the Orders API for in-person payments (QR and Point: create, get, cancel, refund), the account
 * (users/me), its points of sale and Point terminals, and the payments search of the
 * conciliación. Shapes as MP's reference publishes them; amounts travel as strings with two
 * decimals ("1234.50") and are integer cents here.
 */

/** MP's default address; MERCADOPAGO_API_URL replaces it (the fake, a proxy). */
export const MP_API_URL = 'https://api.mercadopago.com';

/** The Orders API's order status values (QR: created → processed | canceled | expired → refunded; Point adds at_terminal, action_required, failed). */
export type MpOrderStatus =
  | 'created'
  | 'at_terminal'
  | 'processing'
  | 'action_required'
  | 'processed'
  | 'refunded'
  | 'canceled'
  | 'expired'
  | 'failed';

export interface MpOrderPayment {
  id: string;
  amount: string;
  paid_amount?: string;
  refunded_amount?: string;
  status: string;
  status_detail?: string;
  /** The payment's id in MP's Payments API (what the payments search answers). */
  reference?: { id?: string };
}

export interface MpRefund {
  id: string;
  transaction_id?: string;
  amount: string;
  status?: string;
}

export interface MpOrder {
  id: string;
  type: 'qr' | 'point';
  external_reference: string;
  total_amount: string;
  total_paid_amount?: string;
  status: MpOrderStatus | string;
  status_detail?: string;
  created_date?: string;
  last_updated_date?: string;
  expiration_time?: string;
  config?: { qr?: { external_pos_id: string; mode?: string }; point?: { terminal_id: string } };
  transactions?: { payments?: MpOrderPayment[]; refunds?: MpRefund[] };
  /** The dynamic QR's data (mode dynamic or hybrid). */
  type_response?: { qr_data?: string };
}

export interface CreateOrderBody {
  type: 'qr' | 'point';
  external_reference: string;
  expiration_time?: string;
  description?: string;
  total_amount?: string;
  transactions: { payments: { amount: string }[] };
  config: { qr: { external_pos_id: string; mode: 'dynamic' } } | { point: { terminal_id: string } };
}

export interface MpPayment {
  id: number | string;
  status: string;
  status_detail?: string;
  date_created?: string;
  date_approved?: string | null;
  external_reference?: string | null;
  transaction_amount: number;
  transaction_amount_refunded?: number;
  fee_details?: { type?: string; amount?: number; fee_payer?: string }[];
  transaction_details?: { net_received_amount?: number; total_paid_amount?: number };
  order?: { id?: string | number; type?: string } | null;
}

/** MP answered with an error (4xx): its status, code and message. */
export class MpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** MP could not be reached, timed out or failed (5xx): nothing is known about the request. */
export class MpUnavailableError extends Error {}

export interface MpCall {
  baseUrl: string;
  token: string;
  timeoutMs: number;
}

/** "1234.50" from cents. */
export const mpAmount = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, '0')}`;

/** Cents from MP's amount (a "1234.50" string or a number with at most two decimals). */
export function mpCents(v: string | number | null | undefined): number {
  if (v === null || v === undefined || v === '') return 0;
  const s = typeof v === 'number' ? v.toFixed(2) : v.trim();
  const m = /^(-)?(\d+)(?:\.(\d{1,2}))?$/.exec(s);
  if (!m) throw new MpError(502, 'bad_amount', `monto no válido de Mercado Pago: ${s}`);
  const cents = Number(m[2]) * 100 + Number((m[3] ?? '').padEnd(2, '0'));
  return m[1] ? -cents : cents;
}

async function request<T>(
  call: MpCall,
  method: 'GET' | 'POST',
  path: string,
  opts: { body?: unknown; idempotencyKey?: string; query?: Record<string, string | number> } = {},
): Promise<T> {
  const url = new URL(path, call.baseUrl.replace(/\/?$/, '/'));
  for (const [k, v] of Object.entries(opts.query ?? {})) url.searchParams.set(k, String(v));
  const headers: Record<string, string> = { authorization: `Bearer ${call.token}`, accept: 'application/json' };
  if (opts.body !== undefined) headers['content-type'] = 'application/json';
  if (opts.idempotencyKey) headers['x-idempotency-key'] = opts.idempotencyKey;
  let res: Response;
  try {
    res = await fetch(url, {
      method,
      headers,
      body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
      signal: AbortSignal.timeout(call.timeoutMs),
    });
  } catch (e) {
    throw new MpUnavailableError((e as Error).message);
  }
  const text = await res.text().catch(() => '');
  let json: unknown;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (res.status >= 500 || res.status === 429) throw new MpUnavailableError(`Mercado Pago respondió ${res.status}`);
  if (res.status >= 400) {
    const b = (json ?? {}) as { message?: string; error?: string; errors?: { code?: string; message?: string }[] };
    const first = b.errors?.[0];
    throw new MpError(
      res.status,
      first?.code ?? b.error ?? 'error',
      first?.message ?? b.message ?? `HTTP ${res.status}`,
    );
  }
  if (json === null) throw new MpUnavailableError('Mercado Pago respondió sin JSON');
  return json as T;
}

export const createOrder = (call: MpCall, body: CreateOrderBody, idempotencyKey: string) =>
  request<MpOrder>(call, 'POST', 'v1/orders', { body, idempotencyKey });

export const getOrder = (call: MpCall, id: string) =>
  request<MpOrder>(call, 'GET', `v1/orders/${encodeURIComponent(id)}`);

export const cancelOrder = (call: MpCall, id: string, idempotencyKey: string) =>
  request<MpOrder>(call, 'POST', `v1/orders/${encodeURIComponent(id)}/cancel`, { idempotencyKey });

/**
 * A refund of an order: the whole order without a body, or part of a payment transaction
 * (`{transactions: [{id, amount}]}`).
 */
export const refundOrder = (
  call: MpCall,
  id: string,
  idempotencyKey: string,
  partial?: { transactionId: string; cents: number },
) =>
  request<MpOrder>(call, 'POST', `v1/orders/${encodeURIComponent(id)}/refund`, {
    idempotencyKey,
    body: partial ? { transactions: [{ id: partial.transactionId, amount: mpAmount(partial.cents) }] } : undefined,
  });

export const usersMe = (call: MpCall) =>
  request<{ id: number | string; nickname?: string; email?: string; site_id?: string }>(call, 'GET', 'users/me');

export const listPos = (call: MpCall) =>
  request<{ results?: { id: number | string; name?: string; external_id?: string | null }[] }>(call, 'GET', 'pos', {
    query: { limit: 50, offset: 0 },
  });

export const listTerminals = (call: MpCall) =>
  request<{
    data?: { terminals?: { id: string; external_pos_id?: string | null; operating_mode?: string | null }[] };
  }>(call, 'GET', 'terminals/v1/list', { query: { limit: 50, offset: 0 } });

/** One page of the payments approved between two instants (ISO 8601), oldest first. */
export const searchPayments = (call: MpCall, desde: string, hasta: string, offset: number, limit: number) =>
  request<{ paging?: { total?: number; limit?: number; offset?: number }; results?: MpPayment[] }>(
    call,
    'GET',
    'v1/payments/search',
    {
      query: {
        range: 'date_approved',
        begin_date: desde,
        end_date: hasta,
        sort: 'date_approved',
        criteria: 'asc',
        limit,
        offset,
      },
    },
  );
