import { X509Certificate } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { makeCa, signCsr } from '../arca-crypto.js';
import { envelope, escapeXml, node, parseBody } from '../soap.js';
import { CuitsFake, type CondicionFake, type PuntoVentaFake } from './cuits.js';
import { padron } from './padron.js';
import { FaultError, wsaa, type FakeTicket } from './wsaa.js';
import { NS_WSFE, wsfe } from './wsfe.js';

/*
 * A fake ARCA on loopback (issue 16, decision 0013): WSAA LoginCms, WSFEv1 (FEDummy,
 * FECompUltimoAutorizado, FECAESolicitar, FECompConsultar, the FEParamGet* tables, and the CAEA
 * operations of fake/caea.ts and fake/caea-informe.ts) and padrón A5 getPersona_v2, speaking the
 * same SOAP as ARCA, with its state in memory and fault switches flipped through POST /__control
 * (or the CLI's flags). Each service lives in its own file (wsaa.ts, wsfe.ts with its rules in
 * wsfe-detalle.ts, padron.ts); this one holds the server, the state and the switches.
 */

export interface FakeFaults {
  /** Every answer waits this long. */
  slow_ms: number;
  /** Connections are dropped without an answer. */
  down: boolean;
  /** FECAESolicitar approves, then never answers. */
  timeout_after_approve: boolean;
  /** FECAESolicitar rejects with this code (e.g. 10016), until cleared with null. */
  reject_code: string | null;
  /**
   * The first fake: WSAA gives any CMS a ticket (no signature, chain, TRA window, one-TA rule),
   * WSFE and padrón check neither Sign nor expiry, and WSFE makes no registry checks (emisor, punto
   * de venta, receptor) and no rejections but numbering, totals and letter. Off by default: the fake
   * is strict (decisions 0039, 0040).
   */
  lenient: boolean;
  /** The fake's clock runs this far ahead of the real one (tickets expire, windows move). */
  clock_offset_ms: number;
  /** Lifetime of the tickets WSAA issues (ARCA's: 12 hours). */
  ta_ttl_s: number;
}

const DEFAULT_FAULTS: FakeFaults = {
  slow_ms: 0,
  down: false,
  timeout_after_approve: false,
  reject_code: null,
  lenient: false,
  clock_offset_ms: 0,
  ta_ttl_s: 12 * 3600,
};

export interface Approved {
  nro: number;
  fecha: string;
  cae: string;
  vto: string;
  total: number;
  docTipo: number;
  docNro: string;
  /** The request's FECAEDetRequest as received, and when it was processed (yyyymmddhhmmss). */
  det?: Record<string, unknown>;
  proceso?: string;
  /** 'CAEA' for a comprobante reported with FECAEARegInformativo. */
  emision?: 'CAE' | 'CAEA';
  /** The codes of the observations it was approved with. */
  obs?: string[];
}

/** A CAEA the fake granted (fake/caea.ts). */
export interface CaeaFake {
  cuit: string;
  caea: string;
  periodo: number;
  orden: number;
  /** YYYYMMDD */
  desde: string;
  hasta: string;
  tope: string;
  proceso: string;
}

export class FakeArca {
  faults: FakeFaults = { ...DEFAULT_FAULTS };
  readonly ca = makeCa();
  readonly caCert = new X509Certificate(this.ca.certPem);
  private server: Server | null = null;
  /** CUITs with their puntos de venta and IVA condition (fake/cuits.ts). */
  readonly cuits = new CuitsFake();
  /** Tickets WSAA issued, by token. */
  readonly tokens = new Map<string, FakeTicket>();
  /** The last ticket of each certificate (fingerprint) and service: "fp|service" → token. */
  readonly tas = new Map<string, string>();
  /** loginCms calls received (answered or refused), for the tests. */
  logins = 0;
  /** cuit → "ptoVta/tipo" → approved comprobantes by number. */
  readonly books = new Map<string, Map<string, Map<number, Approved>>>();
  readonly hanging = new Set<ServerResponse>();
  /** FECAESolicitar calls received (approved or not), for the tests. */
  solicitudes = 0;
  /** CAEAs granted: "cuit|periodo|orden" → CAEA. */
  readonly caeas = new Map<string, CaeaFake>();
  /** CAEAs informed without movement: "caea|ptoVta" → FchProceso. */
  readonly sinMovimiento = new Map<string, string>();
  url = '';

  async listen(port = 0, host = '127.0.0.1'): Promise<string> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(port, host, resolve));
    const addr = this.server.address() as AddressInfo;
    this.url = `http://${host}:${addr.port}`;
    return this.url;
  }

  async close(): Promise<void> {
    for (const r of this.hanging) r.destroy();
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  get urls() {
    return { wsaa: `${this.url}/wsaa`, wsfe: `${this.url}/wsfe`, padron: `${this.url}/padron-a5` };
  }

  setFaults(f: Partial<FakeFaults>) {
    this.faults = { ...this.faults, ...f };
  }

  /** The switches back to their defaults (tickets, CUITs and books stay). */
  reset() {
    this.faults = { ...DEFAULT_FAULTS };
  }

  /** The fake's clock (the real one plus `clock_offset_ms`). */
  now(): Date {
    return new Date(Date.now() + this.faults.clock_offset_ms);
  }

  /** ARCA's portal: a CUIT with its IVA condition and puntos de venta enabled for web services. */
  registrar(
    cuit: string,
    datos: {
      condicion?: CondicionFake;
      puntos_venta?: (number | Partial<PuntoVentaFake>)[];
      servicios?: string[];
      inactivo?: boolean;
    } = {},
  ) {
    return this.cuits.set(cuit, {
      ...datos,
      puntos_venta: datos.puntos_venta?.map((p) => (typeof p === 'number' ? { nro: p } : p)),
    });
  }

  /** The comprobantes ARCA approved for a CUIT, point of sale and type. */
  approved(cuit: string, ptoVta: number, tipo: number): Approved[] {
    return [...this.book(cuit.replace(/-/g, ''), ptoVta, tipo).values()].sort((a, b) => a.nro - b.nro);
  }

  /** ARCA's portal: a certificate for a CSR. */
  certificateFor(csrPem: string): string {
    return signCsr(csrPem, this.ca);
  }

  book(cuit: string, ptoVta: number, tipo: number) {
    let byCuit = this.books.get(cuit);
    if (!byCuit) this.books.set(cuit, (byCuit = new Map()));
    const k = `${ptoVta}/${tipo}`;
    let b = byCuit.get(k);
    if (!b) byCuit.set(k, (b = new Map()));
    return b;
  }

  private async handle(req: IncomingMessage, res: ServerResponse) {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks).toString('utf8');
    const path = (req.url ?? '/').split('?')[0];
    if (path.startsWith('/__control')) return this.control(req.method ?? 'GET', path, body, res);
    if (this.faults.down) {
      req.socket.destroy();
      return;
    }
    if (this.faults.slow_ms > 0) await new Promise((r) => setTimeout(r, this.faults.slow_ms));
    try {
      const soap = parseBody(body);
      const [op] = Object.keys(soap);
      const arg = node(soap[op]);
      let out: string | null;
      if (path === '/wsaa') out = wsaa(this, op, arg, () => req.socket.destroyed);
      else if (path === '/wsfe') out = wsfe(this, op, arg, res);
      else if (path === '/padron-a5') out = padron(this, op, arg);
      else return this.send(res, 404, 'text/plain', 'No encontrado');
      if (out === null) return; // left hanging on purpose
      this.send(res, 200, 'text/xml; charset=utf-8', out);
    } catch (e) {
      const code = e instanceof FaultError ? e.faultCode : 'soap:Server';
      const ns = e instanceof FaultError ? ' xmlns:ns1="http://xml.apache.org/axis/"' : '';
      const fault = `<soap:Fault><faultcode${ns}>${escapeXml(code)}</faultcode><faultstring>${escapeXml((e as Error).message)}</faultstring></soap:Fault>`;
      this.send(res, 500, 'text/xml; charset=utf-8', envelope(fault, NS_WSFE));
    }
  }

  private send(res: ServerResponse, status: number, type: string, body: string) {
    res.writeHead(status, { 'content-type': type });
    res.end(body);
  }

  private control(method: string, path: string, body: string, res: ServerResponse) {
    const json = (status: number, v: unknown) => this.send(res, status, 'application/json', JSON.stringify(v));
    try {
      const input = body ? (JSON.parse(body) as Record<string, unknown>) : {};
      if (method === 'POST' && path === '/__control/reset') this.reset();
      else if (method === 'POST' && path === '/__control/certificado') {
        return json(200, { certificado_pem: this.certificateFor(String(input.csr_pem ?? '')) });
      } else if (method === 'POST' && path === '/__control/cuit') {
        const c = this.registrar(String(input.cuit ?? ''), input as Parameters<FakeArca['registrar']>[1]);
        return json(200, { cuit: input.cuit, condicion: c.condicion, puntos_venta: [...c.puntos_venta.values()] });
      } else if (method === 'POST') this.setFaults(input as Partial<FakeFaults>);
      return json(200, { faults: this.faults, solicitudes: this.solicitudes });
    } catch (e) {
      return json(400, { error: (e as Error).message });
    }
  }
}
