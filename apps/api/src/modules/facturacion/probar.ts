import { FACTURACION_MESSAGES as M, type ProbarCodigo, type ProbarResult } from '@mostrador/shared';
import * as arca from './arca-client.js';
import { ArcaError, ArcaUnavailableError, type Credentials } from './arca-client.js';
import { keyMatchesCert } from './arca-crypto.js';
import type { ConfigRow, Facturador } from './facturador.js';
import { WsaaError } from './tickets-acceso.js';

/*
 * "Probar conexión" (decision 0039): each step of invoicing in turn, so the answer names the first
 * thing that fails — the setup, the certificate (checked here first: expired, not the key's), the
 * connection (FEDummy: unreachable, too slow, ARCA's servers down), WSAA (a certificate ARCA does
 * not trust, a service it is not associated with, a ticket ARCA holds and we lost), the puntos de
 * venta (FEParamGetPtosVenta: not enabled, blocked, closed) — each with its code and its Spanish.
 */

const result = (
  codigo: ProbarCodigo,
  mensaje: string,
  detalle: string | null = null,
  espera_hasta: Date | null = null,
): ProbarResult => ({
  ok: codigo === 'ok',
  mensaje,
  detalle,
  codigo,
  espera_hasta: espera_hasta?.toISOString() ?? null,
});

const connection = (e: ArcaUnavailableError | ArcaError) =>
  e instanceof ArcaUnavailableError
    ? e.timedOut
      ? result(
          'tiempo_agotado',
          'ARCA no respondió a tiempo: puede estar lento o caído. Probá de nuevo en unos minutos.',
          e.message,
        )
      : result(
          'sin_conexion',
          'No se pudo conectar con ARCA: revisá la conexión a internet del servidor; si sigue, ARCA puede estar caído.',
          e.message,
        )
    : result(
        'arca_no_disponible',
        'ARCA no está atendiendo en este momento: probá de nuevo en unos minutos.',
        e.message,
      );

export async function probarConexion(f: Facturador, cfg: ConfigRow | null, now: Date): Promise<ProbarResult> {
  if (!cfg) return result('sin_configurar', M.notConfigured);
  const { certificadoPem, claveCifrada } = cfg;
  if (!certificadoPem || !claveCifrada) return result('sin_configurar', M.noCertificate);
  if (cfg.certificadoVence && cfg.certificadoVence <= now)
    return result(
      'certificado_vencido',
      M.certExpired,
      `Venció el ${cfg.certificadoVence.toISOString().slice(0, 10)}.`,
    );
  if (!keyMatchesCert(f.box.open(claveCifrada), certificadoPem))
    return result(
      'clave_no_corresponde',
      `${M.keyMismatch} Cargá el certificado de esta clave, o generá un pedido nuevo.`,
    );

  const urls = f.urls(cfg.entorno);
  let servers: string;
  try {
    const d = await arca.feDummy(urls.wsfe, f.timeoutMs);
    servers = `${d.app}/${d.db}/${d.auth}`;
    if (![d.app, d.db, d.auth].every((s) => s.toUpperCase() === 'OK'))
      return result(
        'arca_no_disponible',
        'ARCA responde, pero sus servidores de factura electrónica no están disponibles: probá de nuevo en unos minutos.',
        `Servidores: ${servers}.`,
      );
  } catch (e) {
    if (e instanceof ArcaUnavailableError || e instanceof ArcaError) return connection(e);
    throw e;
  }

  let creds: Credentials;
  try {
    creds = await f.credentials(cfg, 'wsfe');
  } catch (e) {
    if (e instanceof WsaaError) return result(e.diagnostico, e.message, e.original, e.esperaHasta);
    if (e instanceof ArcaUnavailableError || e instanceof ArcaError) return connection(e);
    throw e;
  }

  try {
    const enabled = await arca.puntosVenta(urls.wsfe, creds, f.timeoutMs);
    const wanted = [...new Set([cfg.puntoVenta, ...cfg.puntosVenta])].sort((a, b) => a - b);
    const lista = enabled.map((p) => p.nro).join(', ') || 'ninguno';
    // Homologación lists no puntos de venta and takes any: nothing to check there.
    if (enabled.length || cfg.entorno === 'produccion') {
      const missing = wanted.filter((n) => !enabled.some((p) => p.nro === n && !p.emisionTipo.startsWith('CAEA')));
      const blocked = wanted.filter((n) => enabled.some((p) => p.nro === n && (p.bloqueado || p.baja)));
      if (blocked.length)
        return result(
          'punto_venta_bloqueado',
          `${blocked.length > 1 ? 'Los puntos de venta' : 'El punto de venta'} ${blocked.join(', ')} ` +
            `${blocked.length > 1 ? 'están bloqueados o dados de baja' : 'está bloqueado o dado de baja'} en ARCA: ` +
            'elegí otro en la configuración, o rehabilitalo en ARCA (Administración de puntos de venta y domicilios).',
          `Habilitados en ARCA: ${lista}.`,
        );
      if (missing.length)
        return result(
          'punto_venta_no_habilitado',
          `${missing.length > 1 ? 'Los puntos de venta' : 'El punto de venta'} ${missing.join(', ')} no ` +
            `${missing.length > 1 ? 'están habilitados' : 'está habilitado'} para factura electrónica por web services ` +
            'en ARCA: dalo de alta en ARCA (Administración de puntos de venta y domicilios, sistema «Factura ' +
            'Electrónica - Web Services») o elegí uno habilitado.',
          `Habilitados en ARCA: ${lista}.`,
        );
    }
    const last = await arca.ultimoAutorizado(
      urls.wsfe,
      creds,
      cfg.puntoVenta,
      cfg.condicionIva === 'responsable_inscripto' ? 6 : 11,
      f.timeoutMs,
    );
    return result(
      'ok',
      M.probarOk,
      `Servidores: ${servers}. Último comprobante del punto de venta ${cfg.puntoVenta}: ${last}.`,
    );
  } catch (e) {
    if (e instanceof ArcaError && e.codigo === '600')
      return result(
        'credenciales_rechazadas',
        'ARCA no aceptó el ticket de acceso de este certificado: probá de nuevo en unos minutos; si sigue, revisá que el certificado esté asociado al servicio «wsfe» para este CUIT.',
        `${e.codigo}: ${e.message}`,
      );
    if (e instanceof ArcaUnavailableError) return connection(e);
    if (e instanceof ArcaError) return result('arca_error', `ARCA respondió: ${e.message}`, e.codigo);
    throw e;
  }
}
