import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { CONDICIONES_ARCA_POR_LETRA, CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS, type Letra } from '@mostrador/shared';
import { certInfo, makeCa, readCms, signCsr } from '../arca-crypto.js';
import { envelope, escapeXml, list, node, parseBody, parseXml, text, toXml, type XmlNode } from '../soap.js';

/*
 * A fake ARCA on loopback (issue 16, decision 0013): WSAA LoginCms, WSFEv1 (FEDummy,
 * FECompUltimoAutorizado, FECAESolicitar, FECompConsultar, FEParamGetCondicionIvaReceptor) and
 * padrón A5 getPersona_v2, speaking the same SOAP as ARCA, with its state in memory and fault
 * switches flipped through POST /__control (or the CLI's flags).
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
}

interface Approved {
  nro: number;
  fecha: string;
  cae: string;
  vto: string;
  total: number;
  docTipo: number;
  docNro: string;
}

const NS_WSAA = 'http://wsaa.view.sua.dvadac.desein.afip.gov';
const NS_WSFE = 'http://ar.gov.afip.dif.FEV1/';
const NS_A5 = 'http://a5.soap.ws.server.puc.sr/';

const LETRA_DE_TIPO: Record<number, Letra> = { 1: 'A', 3: 'A', 6: 'B', 8: 'B', 11: 'C', 13: 'C' };
const NOTAS_CREDITO = new Set([3, 8, 13]);

/** A few people the padrón knows. */
export const PADRON_SEED: Record<string, XmlNode> = {
  '30500010912': {
    datosGenerales: {
      idPersona: '30500010912',
      tipoPersona: 'JURIDICA',
      razonSocial: 'DISTRIBUIDORA EL TREBOL SA',
      domicilioFiscal: {
        direccion: 'AV CORRIENTES 1234',
        localidad: 'CIUDAD AUTONOMA BUENOS AIRES',
        descripcionProvincia: 'CIUDAD AUTONOMA BUENOS AIRES',
        codPostal: '1043',
      },
    },
    datosRegimenGeneral: { impuesto: [{ idImpuesto: '30', descripcionImpuesto: 'IVA' }] },
  },
  '20123456786': {
    datosGenerales: {
      idPersona: '20123456786',
      tipoPersona: 'FISICA',
      nombre: 'JUAN',
      apellido: 'PEREZ',
      domicilioFiscal: {
        direccion: 'SAN MARTIN 55',
        localidad: 'ROSARIO',
        descripcionProvincia: 'SANTA FE',
        codPostal: '2000',
      },
    },
    datosMonotributo: { categoriaMonotributo: { descripcionCategoria: 'A LOCACIONES DE SERVICIO' } },
  },
  '27234567891': {
    datosGenerales: {
      idPersona: '27234567891',
      tipoPersona: 'FISICA',
      nombre: 'MARIA',
      apellido: 'GOMEZ',
      domicilioFiscal: {
        direccion: 'BELGRANO 900',
        localidad: 'CORDOBA',
        descripcionProvincia: 'CORDOBA',
        codPostal: '5000',
      },
    },
    datosRegimenGeneral: { impuesto: [{ idImpuesto: '32', descripcionImpuesto: 'IVA EXENTO' }] },
  },
};

const CONDICIONES = [
  [1, 'IVA Responsable Inscripto', 'A/M/C'],
  [4, 'IVA Sujeto Exento', 'B/C'],
  [5, 'Consumidor Final', 'B/C'],
  [6, 'Responsable Monotributo', 'A/M/C'],
  [7, 'Sujeto No Categorizado', 'B/C'],
  [15, 'IVA No Alcanzado', 'B/C'],
  [16, 'Monotributo Trabajador Independiente Promovido', 'A/M/C'],
] as const;

const cents = (v: unknown) => Math.round(Number(text(v)) * 100);
const ymd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');

export class FakeArca {
  faults: FakeFaults = { slow_ms: 0, down: false, timeout_after_approve: false, reject_code: null };
  readonly ca = makeCa();
  private server: Server | null = null;
  private tokens = new Map<string, { cuit: string; service: string }>();
  /** cuit → "ptoVta/tipo" → approved comprobantes by number. */
  private books = new Map<string, Map<string, Map<number, Approved>>>();
  private hanging = new Set<ServerResponse>();
  /** FECAESolicitar calls received (approved or not), for the tests. */
  solicitudes = 0;
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

  reset() {
    this.faults = { slow_ms: 0, down: false, timeout_after_approve: false, reject_code: null };
  }

  /** The comprobantes ARCA approved for a CUIT, point of sale and type. */
  approved(cuit: string, ptoVta: number, tipo: number): Approved[] {
    return [...this.book(cuit.replace(/-/g, ''), ptoVta, tipo).values()].sort((a, b) => a.nro - b.nro);
  }

  /** ARCA's portal: a certificate for a CSR. */
  certificateFor(csrPem: string): string {
    return signCsr(csrPem, this.ca);
  }

  private book(cuit: string, ptoVta: number, tipo: number) {
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
      if (path === '/wsaa') out = this.wsaa(op, arg);
      else if (path === '/wsfe') out = this.wsfe(op, arg, res);
      else if (path === '/padron-a5') out = this.padron(op, arg);
      else return this.send(res, 404, 'text/plain', 'No encontrado');
      if (out === null) return; // left hanging on purpose
      this.send(res, 200, 'text/xml; charset=utf-8', out);
    } catch (e) {
      const fault = `<soap:Fault><faultcode>soap:Server</faultcode><faultstring>${escapeXml((e as Error).message)}</faultstring></soap:Fault>`;
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
      } else if (method === 'POST') this.setFaults(input as Partial<FakeFaults>);
      return json(200, { faults: this.faults, solicitudes: this.solicitudes });
    } catch (e) {
      return json(400, { error: (e as Error).message });
    }
  }

  /* ------------------------------------------------------------ WSAA */

  private wsaa(op: string, arg: XmlNode): string {
    if (op !== 'loginCms') throw new Error(`Operación desconocida: ${op}`);
    const { content, certPem } = readCms(text(arg.in0));
    const tra = node(parseXml(content).loginTicketRequest);
    const service = text(tra.service);
    const info = certInfo(certPem);
    if (!info?.cuit) throw new Error('ns1:cms.cert.untrusted: Certificado sin CUIT');
    if (info.vence.getTime() < Date.now()) throw new Error('ns1:cms.cert.expired: Certificado expirado');
    const token = randomBytes(32).toString('base64');
    const sign = randomBytes(16).toString('base64');
    this.tokens.set(token, { cuit: info.cuit.replace(/-/g, ''), service });
    const now = new Date();
    const ta =
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><loginTicketResponse version="1.0"><header>' +
      `<source>CN=wsaahomo, O=AFIP, C=AR</source><destination>${escapeXml(info.cuit)}</destination>` +
      `<uniqueId>${Date.now()}</uniqueId><generationTime>${now.toISOString()}</generationTime>` +
      `<expirationTime>${new Date(now.getTime() + 12 * 3600_000).toISOString()}</expirationTime></header>` +
      `<credentials><token>${token}</token><sign>${sign}</sign></credentials></loginTicketResponse>`;
    return envelope(
      `<ns:loginCmsResponse><ns:loginCmsReturn>${escapeXml(ta)}</ns:loginCmsReturn></ns:loginCmsResponse>`,
      NS_WSAA,
    );
  }

  private authError(auth: XmlNode, service: string): { Code: number; Msg: string } | null {
    const t = this.tokens.get(text(auth.Token ?? auth.token));
    const cuit = text(auth.Cuit ?? auth.cuitRepresentada);
    if (!t || t.service !== service) return { Code: 600, Msg: 'ValidacionDeToken: No validaron las credenciales.' };
    if (t.cuit !== cuit) return { Code: 600, Msg: 'ValidacionDeToken: el CUIT no corresponde al token.' };
    return null;
  }

  /* ------------------------------------------------------------ WSFEv1 */

  private wsfe(op: string, arg: XmlNode, res: ServerResponse): string | null {
    const wrap = (inner: Record<string, unknown>) =>
      envelope(`<${op}Response xmlns="${NS_WSFE}"><${op}Result>${toXml(inner)}</${op}Result></${op}Response>`, NS_WSFE);
    if (op === 'FEDummy') return wrap({ AppServer: 'OK', DbServer: 'OK', AuthServer: 'OK' });
    const auth = node(arg.Auth);
    const err = this.authError(auth, 'wsfe');
    if (err) return wrap({ Errors: { Err: err } });
    const cuit = text(auth.Cuit);
    if (op === 'FECompUltimoAutorizado') {
      const pv = Number(text(arg.PtoVta));
      const tipo = Number(text(arg.CbteTipo));
      const nros = [...this.book(cuit, pv, tipo).keys()];
      return wrap({ PtoVta: pv, CbteTipo: tipo, CbteNro: nros.length ? Math.max(...nros) : 0 });
    }
    if (op === 'FECompConsultar') {
      const q = node(arg.FeCompConsReq);
      const pv = Number(text(q.PtoVta));
      const tipo = Number(text(q.CbteTipo));
      const a = this.book(cuit, pv, tipo).get(Number(text(q.CbteNro)));
      if (!a)
        return wrap({
          Errors: { Err: { Code: 602, Msg: 'No existen datos en nuestros registros para los parametros ingresados.' } },
        });
      return wrap({
        ResultGet: {
          Concepto: 1,
          DocTipo: a.docTipo,
          DocNro: a.docNro,
          CbteDesde: a.nro,
          CbteHasta: a.nro,
          CbteFch: a.fecha,
          ImpTotal: (a.total / 100).toFixed(2),
          MonId: 'PES',
          MonCotiz: 1,
          Resultado: 'A',
          CodAutorizacion: a.cae,
          EmisionTipo: 'CAE',
          FchVto: a.vto,
          FchProceso: a.fecha,
          PtoVta: pv,
          CbteTipo: tipo,
        },
      });
    }
    if (op === 'FEParamGetCondicionIvaReceptor') {
      const clase = text(arg.ClaseCmp) || 'A';
      return wrap({
        ResultGet: {
          CondicionIvaReceptor: CONDICIONES.filter(([id]) =>
            CONDICIONES_ARCA_POR_LETRA[clase as Letra]?.includes(id),
          ).map(([Id, Desc, Cmp_Clase]) => ({ Id, Desc, Cmp_Clase })),
        },
      });
    }
    if (op === 'FECAESolicitar') return this.solicitar(cuit, node(arg.FeCAEReq), wrap, res);
    throw new Error(`Operación desconocida: ${op}`);
  }

  private solicitar(cuit: string, req: XmlNode, wrap: (x: Record<string, unknown>) => string, res: ServerResponse) {
    this.solicitudes++;
    const cab = node(req.FeCabReq);
    const pv = Number(text(cab.PtoVta));
    const tipo = Number(text(cab.CbteTipo));
    const det = node(list(node(req.FeDetReq).FECAEDetRequest)[0]);
    const nro = Number(text(det.CbteDesde));
    const book = this.book(cuit, pv, tipo);
    const last = book.size ? Math.max(...book.keys()) : 0;
    const letra = LETRA_DE_TIPO[tipo];
    const obs: { Code: number | string; Msg: string }[] = [];
    const total = cents(det.ImpTotal);
    const neto = cents(det.ImpNeto);
    const iva = cents(det.ImpIVA);
    const alic = list(node(det.Iva).AlicIva).map(node);
    const cond = text(det.CondicionIVAReceptorId);
    const docTipo = Number(text(det.DocTipo));
    if (!letra) obs.push({ Code: 10007, Msg: 'El campo CbteTipo no es válido.' });
    if (nro !== last + 1 || text(det.CbteHasta) !== text(det.CbteDesde)) {
      obs.push({
        Code: 10016,
        Msg: `El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado. Ultimo: ${last}`,
      });
    }
    if (neto + iva + cents(det.ImpTrib) + cents(det.ImpOpEx) + cents(det.ImpTotConc) !== total) {
      obs.push({
        Code: 10048,
        Msg: 'El campo ImpTotal debe ser igual a la suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.',
      });
    }
    if (letra === 'C' && (alic.length || iva !== 0))
      obs.push({ Code: 10071, Msg: 'Para comprobantes tipo C no debe informarse el array de IVA.' });
    if (letra !== 'C' && alic.reduce((s, a) => s + cents(a.Importe), 0) !== iva) {
      obs.push({ Code: 10051, Msg: 'La suma de los importes del array de IVA no es igual al campo ImpIVA.' });
    }
    if (letra !== 'C' && alic.length && alic.reduce((s, a) => s + cents(a.BaseImp), 0) !== neto) {
      obs.push({ Code: 10051, Msg: 'La suma de las bases imponibles del array de IVA no es igual al campo ImpNeto.' });
    }
    if (!cond) obs.push({ Code: 10242, Msg: 'El campo Condicion Frente al IVA del receptor resulta obligatorio.' });
    else if (letra && !CONDICIONES_ARCA_POR_LETRA[letra].includes(Number(cond))) {
      obs.push({
        Code: 10243,
        Msg: 'El campo Condicion Frente al IVA del receptor no es valido para la clase de comprobante informado.',
      });
    }
    if (letra === 'A' && docTipo !== 80)
      obs.push({ Code: 10013, Msg: 'Para comprobantes clase A el campo DocTipo debe ser 80 (CUIT).' });
    if (letra === 'B' && docTipo === 99 && total >= CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS) {
      obs.push({
        Code: 10015,
        Msg: 'Si ImpTotal es mayor o igual al monto vigente, DocTipo no puede ser 99: debe identificarse al receptor.',
      });
    }
    if (NOTAS_CREDITO.has(tipo)) {
      const asoc = list(node(det.CbtesAsoc).CbteAsoc).map(node);
      if (!asoc.length) obs.push({ Code: 10197, Msg: 'Para notas de crédito es obligatorio informar CbtesAsoc.' });
      for (const a of asoc) {
        if (!this.book(cuit, Number(text(a.PtoVta)), Number(text(a.Tipo))).get(Number(text(a.Nro)))) {
          obs.push({ Code: 10198, Msg: 'El comprobante asociado no existe.' });
        }
      }
    }
    if (this.faults.reject_code)
      obs.push({ Code: this.faults.reject_code, Msg: `Rechazo simulado (${this.faults.reject_code}).` });
    const fecha = text(det.CbteFch) || ymd(new Date());
    const cab2 = { Cuit: cuit, PtoVta: pv, CbteTipo: tipo, FchProceso: ymd(new Date()), CantReg: 1, Reproceso: 'N' };
    const detResp = {
      Concepto: text(det.Concepto),
      DocTipo: docTipo,
      DocNro: text(det.DocNro),
      CbteDesde: nro,
      CbteHasta: nro,
      CbteFch: fecha,
    };
    if (obs.length) {
      return wrap({
        FeCabResp: { ...cab2, Resultado: 'R' },
        FeDetResp: {
          FECAEDetResponse: { ...detResp, Resultado: 'R', Observaciones: { Obs: obs }, CAE: '', CAEFchVto: '' },
        },
      });
    }
    const vtoDate = new Date(`${fecha.slice(0, 4)}-${fecha.slice(4, 6)}-${fecha.slice(6, 8)}T12:00:00Z`);
    vtoDate.setUTCDate(vtoDate.getUTCDate() + 10);
    const cae = String(70000000000000 + Math.floor(Math.random() * 9_999_999_999_999)).slice(0, 14);
    const a: Approved = { nro, fecha, cae, vto: ymd(vtoDate), total, docTipo, docNro: text(det.DocNro) };
    book.set(nro, a);
    if (this.faults.timeout_after_approve) {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return null;
    }
    return wrap({
      FeCabResp: { ...cab2, Resultado: 'A' },
      FeDetResp: { FECAEDetResponse: { ...detResp, Resultado: 'A', CAE: cae, CAEFchVto: a.vto } },
    });
  }

  /* ------------------------------------------------------------ padrón A5 */

  private padron(op: string, arg: XmlNode): string {
    if (op !== 'getPersona_v2' && op !== 'getPersona') throw new Error(`Operación desconocida: ${op}`);
    const err = this.authError(
      { token: arg.token, cuitRepresentada: arg.cuitRepresentada },
      'ws_sr_constancia_inscripcion',
    );
    if (err) throw new Error(err.Msg);
    const persona = PADRON_SEED[text(arg.idPersona)];
    if (!persona) throw new Error('No existe persona con ese Id');
    return envelope(
      `<ns2:${op}Response xmlns:ns2="${NS_A5}"><personaReturn>${toXml(persona)}</personaReturn></ns2:${op}Response>`,
      NS_A5,
    );
  }
}
