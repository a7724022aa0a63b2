import type { Entorno } from '@mostrador/shared';
import type { Database } from '../../db/client.js';
import { certFingerprint, loginTicketRequest, signCms } from './arca-crypto.js';
import { ArcaError, ArcaUnavailableError, loginCms, type Credentials } from './arca-client.js';

/*
 * WSAA tickets de acceso (decision 0039). ARCA gives one valid ticket (TA) per certificate and
 * service, for up to 12 hours, and refuses another login while it lasts (coe.alreadyAuthenticated).
 * So the ticket is kept per certificate (its fingerprint), service and environment in
 * arca_tickets_acceso, shared by every business that loads that certificate and by every instance;
 * it is used until it expires; only one loginCms per certificate and service runs at a time across
 * instances (a transaction-scoped advisory lock, the others wait and read what it stored); and an
 * alreadyAuthenticated answer reuses the stored ticket, or, when there is none (it was lost),
 * says until when invoicing waits.
 */

export type DiagnosticoWsaa =
  | 'certificado_no_confiable'
  | 'certificado_vencido'
  | 'certificado_invalido'
  | 'servicio_no_autorizado'
  | 'ticket_en_uso'
  | 'pedido_invalido'
  | 'arca_no_disponible'
  | 'arca_error';

/** WSAA refused the login: what it means for the shop, in Spanish, and ARCA's own text. */
export class WsaaError extends ArcaError {
  constructor(
    readonly diagnostico: DiagnosticoWsaa,
    mensaje: string,
    readonly original: string | null,
    readonly esperaHasta: Date | null = null,
  ) {
    super(null, mensaje);
  }
}

/** A ticket lasts at most this long: the bound of the wait when ARCA has one we lost. */
const TA_MAX_MS = 12 * 3600_000;
/** A ticket this close to its expiry is renewed (ARCA refusing it, the stored one goes on). */
const RENEW_MS = 30_000;
/** ARCA may still hold as valid a ticket our clock says expired this long ago. */
const SKEW_MS = 5 * 60_000;
/** After ARCA said it holds a ticket we lack, it is not asked again for this long. */
const ASK_AGAIN_MS = 60_000;

const digits = (cuit: string) => cuit.replace(/-/g, '');
/** What WSAA answered, as it says it (kept for the detail when it is not asked again). */
const YA_AUTENTICADO = 'coe.alreadyAuthenticated: El CEE ya posee un TA valido para el acceso al WSN solicitado';

const hora = (d: Date) =>
  new Intl.DateTimeFormat('es-AR', {
    timeZone: 'America/Argentina/Buenos_Aires',
    day: '2-digit',
    month: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hour12: false,
  })
    .format(d)
    .replace(',', '');

export const mensajeEspera = (servicio: string, hasta: Date) =>
  `ARCA ya entregó un ticket de acceso vigente para este certificado (servicio «${servicio}») y Mostrador no lo ` +
  `tiene guardado (lo pidió otro sistema con el mismo certificado, o se perdió). ARCA no entrega otro hasta que ` +
  `venza: la facturación espera como máximo hasta el ${hora(hasta)} (hora de Argentina). Los comprobantes quedan ` +
  `pendientes y salen solos después; el certificado está bien, no hace falta cambiarlo.`;

/** What a WSAA fault means, by its code (WSAA's specification). */
function wsaaError(e: ArcaError, servicio: string): WsaaError {
  const code = e.codigo ?? '';
  const original = code ? `${code}: ${e.message}` : e.message;
  const w = (d: DiagnosticoWsaa, m: string) => new WsaaError(d, m, original);
  if (code === 'cms.cert.untrusted')
    return w(
      'certificado_no_confiable',
      'ARCA no reconoce el certificado: no lo emitió ARCA, o es de otro entorno (homologación o producción). ' +
        'Descargalo de nuevo del portal de ARCA del entorno elegido y cargalo.',
    );
  if (code === 'cms.cert.expired')
    return w('certificado_vencido', 'El certificado de ARCA está vencido: generá uno nuevo y cargalo.');
  if (code === 'cms.cert.invalid')
    return w(
      'certificado_invalido',
      'ARCA todavía no acepta el certificado (su vigencia empieza más adelante): revisá la fecha del servidor o esperá.',
    );
  if (code.startsWith('cms.'))
    return w(
      'certificado_invalido',
      'ARCA no pudo validar la firma con el certificado: revisá que el certificado corresponda a la clave guardada.',
    );
  if (code === 'coe.notAuthorized' || code === 'wsn.notFound')
    return w(
      'servicio_no_autorizado',
      `El certificado no está autorizado para el servicio «${servicio}»: en el portal de ARCA, Administrador de ` +
        `Relaciones de Clave Fiscal, asociá el certificado (computador fiscal) a ese servicio.`,
    );
  if (code.startsWith('xml.'))
    return w(
      'pedido_invalido',
      'ARCA rechazó el pedido de acceso por sus fechas: revisá que la hora del servidor sea la correcta.',
    );
  if (code === 'wsn.unavailable' || code === 'wsaa.unavailable' || code === 'wsaa.internalError')
    return w('arca_no_disponible', 'El servicio de autenticación de ARCA no está disponible: probá en unos minutos.');
  return w('arca_error', `ARCA rechazó el acceso: ${e.message}`);
}

export interface TicketPedido {
  certificadoPem: string;
  /** The certificate's key, opened only when a login is needed. */
  clave: () => string;
  cuit: string;
  entorno: Entorno;
  wsaaUrl: string;
  servicio: string;
}

interface Stored {
  token: string | null;
  sign: string | null;
  vence: Date | null;
  espera_hasta: Date | null;
  actualizado_en: Date;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export class TicketsAcceso {
  private readonly running = new Map<string, Promise<Credentials>>();
  /**
   * A login's deadline is longer than other calls': one that times out after ARCA issued the ticket
   * loses it, and then nothing can be issued with the certificate for up to 12 hours.
   */
  private readonly loginTimeoutMs: number;

  constructor(
    private readonly database: Database,
    private readonly now: () => Date,
    timeoutMs: number,
  ) {
    this.loginTimeoutMs = Math.max(timeoutMs * 4, 10_000);
  }

  /** A valid ticket for the certificate and service: the stored one, or a new one from WSAA. */
  credentials(p: TicketPedido): Promise<Credentials> {
    const key = `${certFingerprint(p.certificadoPem)}|${p.servicio}|${p.entorno}`;
    const running = this.running.get(key);
    if (running) return running;
    const run = this.obtain(key, p).finally(() => this.running.delete(key));
    this.running.set(key, run);
    return run;
  }

  private usable(t: Stored | undefined): t is Stored & { token: string; sign: string } {
    return !!t?.token && !!t.sign && !!t.vence && t.vence.getTime() > this.now().getTime() + RENEW_MS;
  }

  private async obtain(key: string, p: TicketPedido): Promise<Credentials> {
    const [certificado, servicio, entorno] = key.split('|');
    const cuit = digits(p.cuit);
    const read = async (q: (text: string, values: unknown[]) => Promise<{ rows: Stored[] }>) =>
      (
        await q(
          `SELECT token, sign, vence, espera_hasta, actualizado_en FROM arca_tickets_acceso
            WHERE certificado = $1 AND servicio = $2 AND entorno = $3`,
          [certificado, servicio, entorno],
        )
      ).rows[0];
    const first = await read((t, v) => this.database.pool.query<Stored>(t, v));
    if (this.usable(first)) return { token: first.token, sign: first.sign, cuit };

    // One login per certificate and service across instances: the others wait here and then read it.
    const deadline = Date.now() + this.loginTimeoutMs + 2_000;
    for (;;) {
      const client = await this.database.pool.connect();
      let healthy = true;
      try {
        await client.query('BEGIN');
        const { rows } = await client.query<{ ok: boolean }>('SELECT pg_try_advisory_xact_lock(hashtext($1)) AS ok', [
          `arca:wsaa:${key}`,
        ]);
        if (rows[0].ok) {
          try {
            const out = await this.login(p, cuit, await read((t, v) => client.query<Stored>(t, v)), (t, v) =>
              client.query(t, v),
            );
            await client.query('COMMIT');
            return out;
          } catch (e) {
            // What the failure stored (the wait after a lost ticket) is kept.
            await client.query('COMMIT').catch(() => (healthy = false));
            throw e;
          }
        }
        await client.query('ROLLBACK');
      } catch (e) {
        if (!(e instanceof ArcaError || e instanceof ArcaUnavailableError)) healthy = false;
        throw e;
      } finally {
        client.release(healthy ? undefined : true);
      }
      if (Date.now() > deadline) throw new ArcaUnavailableError('ARCA no entregó el ticket de acceso a tiempo.', true);
      await sleep(25 + Math.random() * 75);
    }
  }

  /** Under the lock: the ticket another instance just stored, or a login. */
  private async login(
    p: TicketPedido,
    cuit: string,
    t: Stored | undefined,
    q: (text: string, values: unknown[]) => Promise<unknown>,
  ): Promise<Credentials> {
    if (this.usable(t)) return { token: t.token, sign: t.sign, cuit };
    const now = this.now();
    const key = [certFingerprint(p.certificadoPem), p.servicio, p.entorno];
    // ARCA said a moment ago that it holds a ticket we lack: not asked again so soon.
    if (
      !t?.token &&
      t?.espera_hasta &&
      t.espera_hasta > now &&
      now.getTime() - t.actualizado_en.getTime() < ASK_AGAIN_MS
    )
      throw new WsaaError('ticket_en_uso', mensajeEspera(p.servicio, t.espera_hasta), YA_AUTENTICADO, t.espera_hasta);
    let ta: Awaited<ReturnType<typeof loginCms>>;
    try {
      const cms = signCms(loginTicketRequest(p.servicio, now), p.certificadoPem, p.clave());
      ta = await loginCms(p.wsaaUrl, cms, this.loginTimeoutMs);
    } catch (e) {
      if (!(e instanceof ArcaError)) throw e;
      if (e.codigo !== 'coe.alreadyAuthenticated') throw wsaaError(e, p.servicio);
      // ARCA holds a valid ticket: ours, when we have it (renewing early, or clocks apart).
      if (t?.token && t.sign && t.vence && t.vence.getTime() > now.getTime() - SKEW_MS)
        return { token: t.token, sign: t.sign, cuit };
      // Lost: nothing until it expires, at most 12 hours from the first time ARCA said so.
      const hasta = t?.espera_hasta && t.espera_hasta > now ? t.espera_hasta : new Date(now.getTime() + TA_MAX_MS);
      await q(
        `INSERT INTO arca_tickets_acceso (certificado, servicio, entorno, cuit, espera_hasta, actualizado_en)
         VALUES ($1, $2, $3, $4, $5, $6)
         ON CONFLICT (certificado, servicio, entorno) DO UPDATE
           SET token = NULL, sign = NULL, generado = NULL, vence = NULL,
               espera_hasta = EXCLUDED.espera_hasta, actualizado_en = EXCLUDED.actualizado_en`,
        [...key, cuit, hasta, now],
      );
      throw new WsaaError('ticket_en_uso', mensajeEspera(p.servicio, hasta), `${e.codigo}: ${e.message}`, hasta);
    }
    await q(
      `INSERT INTO arca_tickets_acceso (certificado, servicio, entorno, cuit, token, sign, generado, vence, espera_hasta, actualizado_en)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8, NULL, $9)
       ON CONFLICT (certificado, servicio, entorno) DO UPDATE
         SET cuit = EXCLUDED.cuit, token = EXCLUDED.token, sign = EXCLUDED.sign, generado = EXCLUDED.generado,
             vence = EXCLUDED.vence, espera_hasta = NULL, actualizado_en = EXCLUDED.actualizado_en`,
      [...key, cuit, ta.token, ta.sign, ta.generado, ta.vence, now],
    );
    return { token: ta.token, sign: ta.sign, cuit };
  }
}
