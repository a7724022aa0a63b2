import type { FastifyBaseLogger } from 'fastify';
import {
  CAEA_MESSAGES,
  COMPROBANTE_TIPO_ARCA,
  CONDICION_IVA_RECEPTOR_ARCA,
  DOC_TIPO_ARCA,
  centsToDecimal,
  type ComprobanteTipo,
  type CondicionIvaReceptor,
  type DocTipo,
  type Entorno,
  type IvaRate,
} from '@mostrador/shared';
import type { Database } from '../../db/client.js';
import { apartFromRequest } from '../../lib/idempotency.js';
import { enNegocio, todosLosNegocios } from '../../db/tenant.js';
import { toCents } from '../products/common.js';
import type { SecretBox } from './arca-crypto.js';
import * as arca from './arca-client.js';
import { ArcaError, ArcaUnavailableError, type ArcaEndpoints, type Credentials } from './arca-client.js';
import { Contingencia } from './caea.js';
import * as cq from './comprobantes.queries.js';
import type { ComprobanteColumns, ComprobanteRow as Row } from './comprobantes.queries.js';
import { businessDay, configRow, type ConfigRow } from './facturacion.queries.js';
import { reconcileSale } from './reconcile.js';
import { TicketsAcceso } from './tickets-acceso.js';
import { clearSettledMarks, markedSales } from './ventas.queries.js';

/*
 * Talks to ARCA for the comprobantes (decision 0013). Numbering: one request in flight per CUIT,
 * punto de venta and type, under a transaction-scoped advisory lock held only around the ARCA
 * calls (the lock's transaction writes nothing); the number sent is committed on the row before
 * the request leaves, so an answer lost to a timeout is settled with FECompConsultar before any
 * new request. Attempts run after the HTTP answer and in a background pass that claims due rows
 * with FOR UPDATE SKIP LOCKED, so several instances share the work.
 */

export interface ArcaSettings {
  /** Endpoints that replace ARCA's for both environments (the fake ARCA, a proxy). */
  urls?: Partial<ArcaEndpoints>;
  /** Deadline of each call to ARCA. */
  timeoutMs?: number;
  /** How long POST comprobantes waits for the outcome before answering 202 pendiente. */
  waitMs?: number;
  /** Background pass every this many ms; 0 = no background worker (tests run passes themselves). */
  workerMs?: number;
  /** Requests to ARCA at once per instance (each holds a database connection for the lock). */
  concurrency?: number;
}

export type { ConfigRow };

export interface EmisorSnapshot {
  cuit: string;
  razon_social: string;
  condicion_iva: ConfigRow['condicionIva'];
  domicilio_fiscal: string | null;
  iibb: string | null;
  inicio_actividades: string | null;
}

export interface LineaSnapshot {
  nombre: string;
  cantidad: number;
  precio_unitario: number;
  descuento: number;
  subtotal: number;
  iva: IvaRate;
}

const digits = (cuit: string) => cuit.replace(/-/g, '');
const ymd = (d: string) => d.replace(/-/g, '');
/** ARCA's DocNro is a number: the document's digits (0 without one). */
const docNroOf = (r: { receptorDocNro: string | null }) => r.receptorDocNro?.replace(/\D/g, '') || '0';
const fromYmd = (s: string) => (s.length === 8 ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}` : null);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Backoff of the next automatic attempt: 15 s, 30 s, 1 min… up to 30 min. */
export const backoffMs = (intentos: number) => Math.min(15_000 * 2 ** Math.max(0, intentos - 1), 30 * 60_000);

/** How often, at most, the background pass asks an unreachable WSFE whether it answers again. */
const WAKE_EVERY_MS = 60_000;

export class Facturador {
  readonly timeoutMs: number;
  readonly waitMs: number;
  private readonly workerMs: number;
  private readonly inFlight = new Set<Promise<void>>();
  /** WSAA tickets per certificate and service, shared by businesses and instances (tickets-acceso.ts). */
  readonly tickets: TicketsAcceso;
  private slots: number;
  private readonly queue: (() => void)[] = [];
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private pass: Promise<void> | null = null;
  /** When WSFE was last asked whether it answers again, per service URL (wake). */
  private readonly probed = new Map<string, number>();
  /**
   * Tests only: the after-steps of a sale, a void and a return do nothing, as when the process
   * dies between the sale's commit and its invoice; the sweep must then create what is missing.
   */
  skipAfterStep = false;
  /** The CAEA contingency (caea.ts, decision 0047). */
  readonly caea: Contingencia;

  constructor(
    private readonly database: Database,
    readonly box: SecretBox,
    private readonly settings: ArcaSettings,
    private readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timeoutMs = settings.timeoutMs ?? 15_000;
    this.waitMs = settings.waitMs ?? 8_000;
    this.workerMs = settings.workerMs ?? 10_000;
    this.slots = Math.max(1, settings.concurrency ?? 2);
    this.tickets = new TicketsAcceso(database, now, this.timeoutMs);
    this.caea = new Contingencia(this, database, now, log);
  }

  urls(entorno: Entorno): ArcaEndpoints {
    return { ...arca.ARCA_URLS[entorno], ...this.settings.urls };
  }

  start() {
    if (this.workerMs <= 0 || this.timer) return;
    this.timer = setInterval(() => {
      // One pass at a time per instance; stop() waits for the one under way.
      if (this.pass) return;
      this.pass = this.sweep()
        .then(() => this.wake())
        .then(() => this.runPending())
        .then(() => this.caea.sweep())
        .then(() => undefined)
        .catch((e) => this.log.error({ err: e }, 'facturación: pasada fallida'))
        .finally(() => (this.pass = null));
    }, this.workerMs);
    this.timer.unref();
  }

  async stop() {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.pass;
    await this.idle();
  }

  /** Waits for every attempt under way (tests, shutdown). */
  async idle() {
    while (this.inFlight.size) await Promise.allSettled([...this.inFlight]);
  }

  /** Attempts a comprobante after the answer, without anyone waiting for it, in its business's context. */
  kick(businessId: string, id: string): Promise<void> {
    const p: Promise<void> = apartFromRequest(() => enNegocio(businessId, () => this.attempt(businessId, id)))
      .catch((e) => this.log.error({ err: e }, 'facturación: intento fallido'))
      .finally(() => this.inFlight.delete(p));
    this.inFlight.add(p);
    return p;
  }

  /**
   * While comprobantes wait more than a minute for their next attempt (ARCA was unreachable), asks
   * WSFE whether it answers again (FEDummy, at most once a minute per service); when it does, they
   * are due at once, so invoices go out within a minute of ARCA coming back (issue 33).
   * Answers how many were brought forward.
   */
  async wake(): Promise<number> {
    if (this.stopped) return 0;
    const now = this.now();
    const { rows } = await todosLosNegocios('facturación: los comprobantes que esperan a ARCA', () =>
      cq.waitingForArca(now, this.database.pool),
    );
    const byUrl = new Map<string, string[]>();
    for (const r of rows) {
      const url = this.urls(r.entorno).wsfe;
      byUrl.set(url, [...(byUrl.get(url) ?? []), r.business_id]);
    }
    let woken = 0;
    for (const [url, businesses] of byUrl) {
      if (now.getTime() - (this.probed.get(url) ?? 0) < WAKE_EVERY_MS) continue;
      this.probed.set(url, now.getTime());
      const answers = await arca.feDummy(url, this.timeoutMs).then(
        (d) => d.app === 'OK',
        () => false,
      );
      if (!answers) continue;
      for (const businessId of businesses) {
        const moved = await enNegocio(businessId, () => cq.dueNow(businessId, now, this.database.db));
        woken += moved.length;
      }
    }
    if (woken)
      this.log.info({ comprobantes: woken }, 'facturación: ARCA responde de nuevo, se reintentan los pendientes');
    return woken;
  }

  /**
   * One background pass: claims the due pendientes (every pendiente with `all`), moving their next
   * attempt ahead so no other instance takes them meanwhile, and attempts each.
   */
  async runPending(opts: { all?: boolean; limit?: number } = {}): Promise<number> {
    if (this.stopped) return 0;
    const { rows } = await todosLosNegocios('facturación: los comprobantes pendientes de todos los negocios', () =>
      cq.claimDue(opts.all ?? false, this.now(), opts.limit ?? 20, this.database.pool),
    );
    await Promise.all(rows.map((r) => this.kick(r.business_id, r.id)));
    return rows.length;
  }

  /**
   * The reconcile sweep (crash safety): every sale marked `conciliar` by its own transaction (an
   * invoice asked for, a void, a return) gets the comprobantes it lacks, through the same service
   * functions as the after-steps. Marks the after-steps already settled are cleared in one
   * statement; each other sale is reconciled in a transaction of its own holding its row with
   * FOR NO KEY UPDATE SKIP LOCKED (several instances share the work); the new ones are attempted.
   * Answers how many comprobantes it created.
   */
  async sweep(opts: { limit?: number } = {}): Promise<number> {
    if (this.stopped) return 0;
    const pending = await todosLosNegocios('facturación: las ventas por conciliar de todos los negocios', () =>
      this.database.db.transaction(async (tx) => {
        // The marks are held first; the check runs in a later statement, so its snapshot sees every
        // void or return that committed before (a new one waits for this transaction).
        const marked = await markedSales(opts.limit ?? 500, tx);
        if (!marked.length) return [];
        // Most marks are already settled by the after-steps (the fast path): cleared in one statement.
        const cleared = await clearSettledMarks(marked, tx);
        const done = new Set(cleared.map((r) => `${r.business_id}|${r.id}`));
        return marked.filter((r) => !done.has(`${r.business_id}|${r.id}`));
      }),
    );
    let created = 0;
    for (const r of pending) {
      try {
        // Each sale is reconciled in its own business's context.
        const ids = await enNegocio(r.business_id, async () =>
          reconcileSale(this.database.db, r.business_id, r.id, await this.today(r.business_id), this.log),
        );
        for (const id of ids ?? []) void this.kick(r.business_id, id);
        created += ids?.length ?? 0;
      } catch (e) {
        // The mark stays: the next sweep tries this sale again.
        this.log.error({ err: e, venta: r.id }, 'facturación: conciliación fallida');
      }
    }
    return created;
  }

  private async slot<T>(fn: () => Promise<T>): Promise<T> {
    if (this.slots > 0) this.slots--;
    else await new Promise<void>((r) => this.queue.push(r));
    try {
      return await fn();
    } finally {
      const next = this.queue.shift();
      if (next) next();
      else this.slots++;
    }
  }

  /* ------------------------------------------------------------ WSAA */

  /** A WSAA ticket for the service: the certificate's, shared by every business that uses it (decision 0039). */
  async credentials(cfg: ConfigRow, service: string): Promise<Credentials> {
    const { certificadoPem, claveCifrada } = cfg;
    if (!certificadoPem || !claveCifrada) throw new ArcaError(null, 'Falta el certificado o la clave.');
    return this.tickets.credentials({
      certificadoPem,
      clave: () => this.box.open(claveCifrada),
      cuit: cfg.cuit,
      entorno: cfg.entorno,
      wsaaUrl: this.urls(cfg.entorno).wsaa,
      servicio: service,
    });
  }

  async config(businessId: string): Promise<ConfigRow | null> {
    return configRow(businessId, this.database.db);
  }

  /* ------------------------------------------------------------ issuing */

  /** Waits up to `waitMs` for the comprobante's attempt; it goes on in the background after that. */
  async attemptWaiting(businessId: string, id: string): Promise<void> {
    await Promise.race([this.kick(businessId, id), sleep(this.waitMs)]);
  }

  private async attempt(businessId: string, id: string): Promise<void> {
    await this.slot(async () => {
      const row = await this.row(businessId, id);
      if (!row || row.estado !== 'pendiente') return;
      const cfg = await this.config(businessId);
      if (!cfg) return this.postpone(row, null, 'La facturación no está configurada.');
      let esperaInforme = false;
      if (row.asociadoId) {
        const factura = await this.row(businessId, row.asociadoId);
        if (factura?.estado === 'rechazado') {
          // An invoice ARCA never authorised has nothing to cancel.
          return this.update(row, {
            estado: 'rechazado',
            errorMensaje: 'Su factura fue rechazada: no hay nada que anular.',
            proximoIntento: null,
          });
        }
        if (factura?.estado !== 'autorizado') {
          return this.postpone(row, null, 'La nota de crédito espera que ARCA autorice su factura.');
        }
        // ARCA knows a factura issued under a CAEA only once it is reported (10041 otherwise).
        esperaInforme = factura.emision === 'caea' && factura.caeaInforme !== 'informado';
      }
      // WSFE unreachable for longer than the business allows: a comprobante never sent (a factura,
      // or the nota de crédito of an authorised one) goes under the CAEA, reported afterwards in order.
      if (row.numero === null && this.caea.enContingencia(cfg) && (await this.caea.emitir(cfg, row))) return;
      if (esperaInforme) return this.postpone(row, null, CAEA_MESSAGES.notaEsperaInforme);
      let creds: Credentials;
      try {
        creds = await this.credentials(cfg, 'wsfe');
      } catch (e) {
        if (e instanceof ArcaUnavailableError) await this.caea.caida(businessId);
        return this.postpone(row, e instanceof ArcaError ? e.codigo : null, (e as Error).message);
      }
      const tipo = COMPROBANTE_TIPO_ARCA[row.tipo as ComprobanteTipo];
      await this.locked(`arca:${row.emisorCuit}:${row.puntoVenta}:${tipo}`, async () => {
        const current = await this.row(businessId, id);
        if (!current || current.estado !== 'pendiente') return;
        await this.send(cfg, creds, current, tipo);
      });
    });
  }

  /**
   * Runs `fn` holding the advisory lock of `key` in a transaction of its own (transaction-scoped:
   * it works through a transaction-mode pooler and dies with the connection). Waiting polls with
   * pg_try_advisory_xact_lock so no connection is held while in the queue.
   */
  async locked(key: string, fn: () => Promise<void>): Promise<void> {
    const deadline = Date.now() + this.timeoutMs * 4;
    for (;;) {
      const client = await this.database.pool.connect();
      let release = true;
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [
          key,
        ]);
        if (rows[0].ok) {
          try {
            await fn();
          } finally {
            await client.query('COMMIT').catch(() => (release = false));
          }
          return;
        }
        await client.query('ROLLBACK');
      } catch (e) {
        release = false;
        throw e;
      } finally {
        client.release(release ? undefined : true);
      }
      if (Date.now() > deadline) return; // left pendiente: the next pass takes it
      await sleep(20 + Math.random() * 60);
    }
  }

  private async row(businessId: string, id: string): Promise<Row | null> {
    return cq.comprobanteRow(businessId, id, this.database.db);
  }

  private async update(row: Row, set: ComprobanteColumns) {
    await cq.updateComprobante(row.businessId, row.id, { ...set, actualizadoEn: this.now() }, this.database.db);
  }

  private async postpone(row: Row, codigo: string | null, mensaje: string) {
    const intentos = row.intentos + 1;
    await this.update(row, {
      intentos,
      proximoIntento: new Date(this.now().getTime() + backoffMs(intentos)),
      errorCodigo: codigo,
      errorMensaje: mensaje,
    });
  }

  /** Under the lock: settles a number sent before, or sends with the next one. */
  private async send(cfg: ConfigRow, creds: Credentials, row: Row, tipo: number): Promise<void> {
    const url = this.urls(cfg.entorno).wsfe;
    const t = this.timeoutMs;
    try {
      if (row.numero !== null) {
        const found = await arca.consultar(url, creds, row.puntoVenta, tipo, row.numero, t);
        const docNro = docNroOf(row);
        if (found && toCents(found.total) === toCents(row.total) && (found.docNro === docNro || found.docNro === '')) {
          await this.update(row, {
            estado: 'autorizado',
            cae: found.cae,
            caeVencimiento: fromYmd(found.vencimiento),
            errorCodigo: null,
            errorMensaje: null,
            proximoIntento: null,
          });
          return;
        }
      }
      const last = await arca.ultimoAutorizado(url, creds, row.puntoVenta, tipo, t);
      await this.caea.responde(cfg);
      const nro = last + 1;
      const fecha = await this.today(row.businessId);
      // Another of our rows that kept this number was never approved (ARCA's last is below it).
      await cq.releaseNumber(row.businessId, row, nro, this.database.db);
      await this.update(row, { numero: nro, fecha, enviadoEn: this.now(), intentos: row.intentos + 1 });
      const r = await arca.solicitar(url, creds, await this.solicitudDe(row, tipo, nro, ymd(fecha)), t);
      if (r.aprobado) {
        await this.update(row, {
          estado: 'autorizado',
          cae: r.cae,
          caeVencimiento: fromYmd(r.vencimiento),
          errorCodigo: null,
          errorMensaje: null,
          proximoIntento: null,
        });
      } else if (r.codigo === '10016' && row.intentos < 3) {
        // The number moved under us (another system on this punto de venta): again, at once.
        await this.update(row, {
          numero: null,
          errorCodigo: r.codigo,
          errorMensaje: r.mensaje,
          intentos: row.intentos + 1,
          proximoIntento: this.now(),
        });
      } else {
        await this.update(row, {
          estado: 'rechazado',
          numero: null,
          errorCodigo: r.codigo,
          errorMensaje: r.mensaje,
          proximoIntento: null,
        });
      }
    } catch (e) {
      if (e instanceof ArcaUnavailableError) await this.caea.caida(row.businessId);
      if (e instanceof ArcaUnavailableError || e instanceof ArcaError) {
        const fresh = (await this.row(row.businessId, row.id)) ?? row;
        await this.postpone(fresh, e instanceof ArcaError ? e.codigo : null, e.message);
        return;
      }
      throw e;
    }
  }

  /** A comprobante as WSFEv1 takes it (FECAESolicitar, FECAEARegInformativo). */
  async solicitudDe(row: Row, tipo: number, nro: number, fecha: string): Promise<arca.Solicitud> {
    const asociado = row.asociadoId ? await this.row(row.businessId, row.asociadoId) : null;
    const alicuotas = row.alicuotas as { id: number; base_imponible: number; importe: number }[];
    return {
      ptoVta: row.puntoVenta,
      tipo,
      nro,
      fecha,
      concepto: row.concepto,
      servicio:
        row.concepto !== 1 && row.servicioDesde && row.servicioHasta && row.vencimientoPago
          ? { desde: ymd(row.servicioDesde), hasta: ymd(row.servicioHasta), vtoPago: ymd(row.vencimientoPago) }
          : undefined,
      docTipo: DOC_TIPO_ARCA[row.receptorDocTipo as DocTipo],
      docNro: docNroOf(row),
      condicionIvaReceptor: CONDICION_IVA_RECEPTOR_ARCA[row.receptorCondicionIva as CondicionIvaReceptor],
      total: row.total,
      neto: row.neto,
      iva: row.iva,
      tributos: row.tributos,
      exento: row.exento,
      noGravado: row.noGravado,
      // A rate with no base is never informed (10020); rows stored before that rule included one.
      alicuotas: alicuotas
        .filter((a) => a.base_imponible > 0)
        .map((a) => ({ id: a.id, base: centsToDecimal(a.base_imponible), importe: centsToDecimal(a.importe) })),
      asociado:
        asociado && asociado.numero !== null
          ? {
              tipo: COMPROBANTE_TIPO_ARCA[asociado.tipo as ComprobanteTipo],
              ptoVta: asociado.puntoVenta,
              nro: asociado.numero,
              cuit: digits(asociado.emisorCuit),
              fecha: ymd(asociado.fecha),
            }
          : undefined,
    };
  }

  async today(businessId: string): Promise<string> {
    return (await businessDay(businessId, this.now(), this.database.pool)) ?? this.now().toISOString().slice(0, 10);
  }
}
