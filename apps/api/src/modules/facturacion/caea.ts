import type { FastifyBaseLogger } from 'fastify';
import {
  CAEA_MESSAGES,
  COMPROBANTE_TIPO_ARCA,
  COMPROBANTE_TIPO_LABELS,
  caeaErrorMessage,
  informableDesde,
  quincenaDe,
  quincenaSiguiente,
  quincenasAPedir,
  type Caea as CaeaOut,
  type CaeaEstado,
  type ComprobanteTipo,
} from '@mostrador/shared';
import type { Database } from '../../db/client.js';
import { enNegocio, todosLosNegocios } from '../../db/tenant.js';
import { toCents } from '../products/common.js';
import * as arca from './arca-client.js';
import { ArcaError, ArcaUnavailableError, type Credentials } from './arca-client.js';
import * as q from './caea.queries.js';
import { caeaBusinesses } from './facturacion.queries.js';
import type { ConfigRow, Facturador } from './facturador.js';

/*
 * CAEA contingency (issue 32 point 6, decision 0047). Ahead of each fortnight the CAEA is requested
 * (FECAEASolicitar; FECAEAConsultar when ARCA says it was already granted, 15008). When WSFE has
 * not answered for longer than the business's `caea_tras_minutos`, a pendiente factura or nota de
 * crédito never sent is issued under the CAEA in force on the CAEA punto de venta, with the next
 * number of that punto de venta: it is authorised as printed, and reported with
 * FECAEARegInformativo once WSFE answers (in number order, facturas first; a rejected report holds
 * the numbers after it). A CAEA whose fortnight ended unused is informed with
 * FECAEASinMovimientoInformar. ARCA's dates are Argentina's.
 */

/** A CAEA refused by ARCA is asked again after this long. */
const REINTENTO_MS = 10 * 60_000;
/** The background pass does the CAEA work at most this often per instance. */
const CADA_MS = 60_000;

const ymd = (d: string) => d.replace(/-/g, '');
const iso = (s: string) => (/^\d{8}$/.test(s) ? `${s.slice(0, 4)}-${s.slice(4, 6)}-${s.slice(6, 8)}` : null);

/** yyyymmddhhmmss in Argentina's time (CbteFchHsGen). */
function horaArgentina(d: Date): string {
  const p = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/Argentina/Buenos_Aires',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hourCycle: 'h23',
    })
      .formatToParts(d)
      .map((x) => [x.type, x.value]),
  );
  return `${p.year}${p.month}${p.day}${p.hour}${p.minute}${p.second}`;
}

export class Contingencia {
  private ultima = 0;

  constructor(
    private readonly f: Facturador,
    private readonly database: Database,
    private readonly now: () => Date,
    private readonly log: FastifyBaseLogger,
  ) {}

  private get db() {
    return this.database.db;
  }

  /** WSFE has not answered for longer than the business allows, and it has a CAEA punto de venta. */
  enContingencia(cfg: ConfigRow): boolean {
    return (
      cfg.caeaPuntoVenta !== null &&
      cfg.wsfeCaidoDesde !== null &&
      this.now().getTime() - cfg.wsfeCaidoDesde.getTime() >= cfg.caeaTrasMinutos * 60_000
    );
  }

  async caida(businessId: string) {
    await q.marcarWsfeCaido(businessId, this.now(), this.db);
  }

  async responde(cfg: ConfigRow) {
    if (cfg.wsfeCaidoDesde) await q.marcarWsfeResponde(cfg.businessId, this.db);
  }

  /**
   * Issues a pendiente comprobante, never sent, under the CAEA in force today: a factura, or the
   * nota de crédito of an authorised one (its CbtesAsoc names the factura, on whichever punto de
   * venta it went). False when there is no CAEA in force (it goes on waiting for WSFE). Numbered
   * under the punto de venta's lock, in the sequence of its own type, as WSFE's are.
   */
  async emitir(cfg: ConfigRow, row: { businessId: string; id: string; tipo: string }): Promise<boolean> {
    const pv = cfg.caeaPuntoVenta;
    if (pv === null) return false;
    const hoy = await this.f.today(row.businessId);
    const vigente = await q.caeaVigente(row.businessId, cfg.cuit, cfg.entorno, hoy, this.db);
    if (!vigente?.caea) return false;
    const caea = vigente.caea;
    const tipo = COMPROBANTE_TIPO_ARCA[row.tipo as ComprobanteTipo];
    let emitido = false;
    await this.f.locked(`arca:${cfg.cuit}:${pv}:${tipo}`, async () => {
      const numero = await q.proximoNumeroCaea(row.businessId, cfg.cuit, pv, row.tipo, this.db);
      emitido = await q.emitirConCaea(
        row.businessId,
        row.id,
        { puntoVenta: pv, numero, fecha: hoy, caea, vence: vigente.vigHasta, generado: this.now() },
        this.db,
      );
    });
    if (emitido) this.log.warn({ comprobante: row.id, caea }, 'facturación: emitido con CAEA (WSFE no responde)');
    return emitido;
  }

  /** Every business with a CAEA punto de venta: its CAEA work (at most once a minute unless `force`). */
  async sweep(opts: { force?: boolean } = {}): Promise<void> {
    if (!opts.force && this.now().getTime() - this.ultima < CADA_MS) return;
    this.ultima = this.now().getTime();
    const { rows } = await todosLosNegocios('facturación: los negocios con contingencia CAEA', () =>
      caeaBusinesses(this.database.pool),
    );
    for (const r of rows) {
      try {
        await enNegocio(r.business_id, () => this.actualizar(r.business_id));
      } catch (e) {
        this.log.error({ err: e, negocio: r.business_id }, 'facturación: contingencia CAEA fallida');
      }
    }
  }

  /**
   * One business: whether WSFE answers (FEDummy while an outage is marked), the CAEAs due, the
   * reports pending and the unused CAEAs to inform.
   */
  async actualizar(businessId: string): Promise<void> {
    const cfg = await this.f.config(businessId);
    if (!cfg?.caeaPuntoVenta || !cfg.certificadoPem || !cfg.claveCifrada) return;
    const url = this.f.urls(cfg.entorno).wsfe;
    try {
      if (cfg.wsfeCaidoDesde) {
        await arca.feDummy(url, this.f.timeoutMs);
        await this.responde(cfg);
      }
      const creds = await this.f.credentials(cfg, 'wsfe');
      const hoy = await this.f.today(businessId);
      await this.pedir(cfg, creds, hoy);
      await this.informar(cfg, creds, hoy);
      await this.sinMovimiento(cfg, creds, hoy);
    } catch (e) {
      if (e instanceof ArcaUnavailableError) return this.caida(businessId);
      if (e instanceof ArcaError) {
        this.log.warn(
          { negocio: businessId, err: e.message },
          'facturación: ARCA rechazó un pedido de la contingencia CAEA',
        );
        return;
      }
      throw e;
    }
  }

  /** The CAEA of the current fortnight and, from 5 days before it, of the next. */
  private async pedir(cfg: ConfigRow, creds: Credentials, hoy: string) {
    const url = this.f.urls(cfg.entorno).wsfe;
    for (const quin of quincenasAPedir(hoy)) {
      const had = await q.caeaDeQuincena(cfg.businessId, quin.periodo, quin.orden, this.db);
      const mismo = had && had.cuit === cfg.cuit && had.entorno === cfg.entorno;
      if (mismo && had.caea) continue;
      if (mismo && this.now().getTime() - had.intentadoEn.getTime() < REINTENTO_MS) continue;
      const base = {
        periodo: quin.periodo,
        orden: quin.orden,
        cuit: cfg.cuit,
        entorno: cfg.entorno,
        vigDesde: quin.desde,
        vigHasta: quin.hasta,
      };
      try {
        let got: arca.CaeaOtorgado;
        try {
          got = await arca.caeaSolicitar(url, creds, quin.periodo, quin.orden, this.f.timeoutMs);
        } catch (e) {
          // Already granted (another instance, or an answer lost): ARCA gives it with FECAEAConsultar.
          if (!(e instanceof ArcaError && e.codigo === '15008')) throw e;
          got = await arca.caeaConsultar(url, creds, quin.periodo, quin.orden, this.f.timeoutMs);
        }
        await q.guardarCaea(
          cfg.businessId,
          {
            ...base,
            caea: got.caea,
            vigDesde: iso(got.desde) ?? quin.desde,
            vigHasta: iso(got.hasta) ?? quin.hasta,
            topeInforme: iso(got.tope),
            errorCodigo: null,
            errorMensaje: null,
          },
          this.now(),
          this.db,
        );
      } catch (e) {
        if (!(e instanceof ArcaError)) throw e;
        await q.guardarCaea(
          cfg.businessId,
          { ...base, caea: null, topeInforme: null, errorCodigo: e.codigo, errorMensaje: e.message },
          this.now(),
          this.db,
        );
      }
    }
  }

  /**
   * FECAEARegInformativo of every comprobante issued under a CAEA, in number order per punto de
   * venta and type, facturas before notas. ARCA takes a report only after the day its fortnight
   * began (1414), and a nota whose factura was issued under a CAEA goes after that factura's
   * report (else ARCA observes 801: the associated comprobante is not in its bases).
   */
  private async informar(cfg: ConfigRow, creds: Credentials, hoy: string) {
    const url = this.f.urls(cfg.entorno).wsfe;
    const t = this.f.timeoutMs;
    const rows = await q.porInformar(cfg.businessId, this.db);
    const grupos = new Map<string, typeof rows>();
    for (const r of rows)
      grupos.set(`${r.puntoVenta}:${r.tipo}`, [...(grupos.get(`${r.puntoVenta}:${r.tipo}`) ?? []), r]);
    const orden = [...grupos.values()].sort((a, b) => Number(!!a[0].asociadoId) - Number(!!b[0].asociadoId));
    for (const grupo of orden) {
      const { puntoVenta, tipo } = grupo[0];
      const codigo = COMPROBANTE_TIPO_ARCA[tipo as ComprobanteTipo];
      await this.f.locked(`arca:${cfg.cuit}:${puntoVenta}:${codigo}`, async () => {
        for (const { id } of grupo) {
          const row = await q.comprobanteCaea(cfg.businessId, id, this.db);
          if (!row || row.caeaInforme !== 'pendiente' || row.numero === null || !row.cae || !row.caeaGeneradoEn)
            continue;
          // Not before the day after its fortnight began; the numbers after it wait too.
          if (hoy < informableDesde(row.fecha)) return;
          if (row.asociadoId) {
            const factura = await q.comprobanteCaea(cfg.businessId, row.asociadoId, this.db);
            if (factura?.emision === 'caea' && factura.caeaInforme !== 'informado') return;
          }
          // A report sent before whose answer was lost: ARCA may have it already.
          if (row.enviadoEn) {
            const found = await arca.consultar(url, creds, row.puntoVenta, codigo, row.numero, t);
            if (found && found.cae === row.cae && toCents(found.total) === toCents(row.total)) {
              await q.marcarInforme(
                cfg.businessId,
                id,
                { estado: 'informado', errorCodigo: null, errorMensaje: null },
                this.db,
              );
              continue;
            }
          }
          await q.marcarInforme(cfg.businessId, id, { enviado: this.now() }, this.db);
          const r = await arca.caeaInformar(
            url,
            creds,
            {
              ...(await this.f.solicitudDe(row, codigo, row.numero, ymd(row.fecha))),
              caea: row.cae,
              generado: horaArgentina(row.caeaGeneradoEn),
            },
            t,
          );
          if (r.aprobado) {
            await q.marcarInforme(
              cfg.businessId,
              id,
              { estado: 'informado', errorCodigo: null, errorMensaje: null },
              this.db,
            );
          } else {
            await q.marcarInforme(
              cfg.businessId,
              id,
              { estado: 'rechazado', errorCodigo: r.codigo, errorMensaje: r.mensaje },
              this.db,
            );
            // The numbers after it wait: ARCA takes them in sequence.
            return;
          }
        }
      });
    }
  }

  /** FECAEASinMovimientoInformar of each CAEA whose fortnight ended without comprobantes. */
  private async sinMovimiento(cfg: ConfigRow, creds: Credentials, hoy: string) {
    const pv = cfg.caeaPuntoVenta;
    if (pv === null) return;
    const url = this.f.urls(cfg.entorno).wsfe;
    for (const c of await q.caeasSinUsar(cfg.businessId, cfg.cuit, hoy, this.db)) {
      const r = await arca.caeaSinMovimiento(url, creds, pv, c.caea!, this.f.timeoutMs);
      // 1209: ARCA already had it (an answer lost before): informed.
      const ok = r.ok || r.codigo === '1209';
      await q.marcarSinMovimiento(
        cfg.businessId,
        c,
        ok
          ? { estado: 'informado', puntoVenta: pv, errorCodigo: null, errorMensaje: null }
          : { estado: 'rechazado', puntoVenta: pv, errorCodigo: r.codigo, errorMensaje: r.mensaje },
        this.db,
      );
    }
  }

  /** What the Facturación screen shows of the contingency. */
  async estado(businessId: string, cfg: ConfigRow | null): Promise<CaeaEstado> {
    const hoy = await this.f.today(businessId);
    const recientes = await q.caeasRecientes(businessId, 12, this.db);
    const out = (c: (typeof recientes)[number]): CaeaOut => ({
      periodo: c.periodo,
      orden: c.orden,
      caea: c.caea,
      vig_desde: c.vigDesde,
      vig_hasta: c.vigHasta,
      tope_informe: c.topeInforme,
      error_codigo: c.errorCodigo,
      error_mensaje: c.errorCodigo || c.errorMensaje ? caeaErrorMessage(c.errorCodigo, c.errorMensaje) : null,
      usados: c.usados,
      sin_movimiento: c.sinMovimiento,
    });
    const actual = quincenaDe(hoy);
    const siguiente = quincenaSiguiente(actual);
    const de = (p: number, o: number) => recientes.find((c) => c.periodo === p && c.orden === o);
    const vigente = de(actual.periodo, actual.orden);
    const proxima = de(siguiente.periodo, siguiente.orden);
    const pendientes = await q.sinInformar(businessId, this.db);
    return {
      punto_venta: cfg?.caeaPuntoVenta ?? null,
      tras_minutos: cfg?.caeaTrasMinutos ?? 30,
      wsfe_sin_respuesta_desde: cfg?.wsfeCaidoDesde?.toISOString() ?? null,
      en_contingencia: !!cfg && this.enContingencia(cfg),
      vigente: vigente ? out(vigente) : null,
      proxima: proxima ? out(proxima) : null,
      caeas: recientes.map(out),
      por_informar: pendientes.map((r) => {
        const fueraDeTermino = r.topeInforme !== null && hoy > r.topeInforme;
        return {
          id: r.id,
          tipo_label: COMPROBANTE_TIPO_LABELS[r.tipo as ComprobanteTipo],
          punto_venta: r.puntoVenta,
          numero: r.numero,
          fecha: r.fecha,
          total: Number(r.total),
          caea: r.cae,
          caea_informe: r.caeaInforme!,
          tope_informe: r.topeInforme,
          fuera_de_termino: fueraDeTermino,
          informable_desde: informableDesde(r.fecha),
          error_codigo: r.errorCodigo,
          error_mensaje:
            r.caeaInforme === 'rechazado'
              ? `${CAEA_MESSAGES.informeRechazado} ${caeaErrorMessage(r.errorCodigo, r.errorMensaje)}`
              : fueraDeTermino
                ? CAEA_MESSAGES.informeFueraDeTermino(r.topeInforme!)
                : null,
        };
      }),
    };
  }
}
