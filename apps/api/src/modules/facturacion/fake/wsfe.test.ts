import { afterAll, describe, expect, it } from 'vitest';
import { generateKeyAndCsr, loginTicketRequest, signCms } from '../arca-crypto.js';
import * as arca from '../arca-client.js';
import { envelope, list, node, parseBody, text, toXml } from '../soap.js';
import { FakeArca } from './fake-arca.js';

/*
 * The strict fake WSFEv1 (decision 0040): each rejection of the developer manual (v4.7) with its
 * code, each next to its negative control (the same request, fixed, is approved), the observations
 * 10041, 10063, 10217 and 10247 on approved comprobantes, and the lenient switch.
 */

const fake = new FakeArca();
await fake.listen(0);
afterAll(() => fake.close());

const RI = '30712345671';
const MONO = '20300000003';
fake.cuits.set(RI, {
  condicion: 'responsable_inscripto',
  puntos_venta: [{ nro: 1 }, { nro: 2, bloqueado: true }, { nro: 3, emision_tipo: 'CAEA' }, { nro: 4 }],
});
fake.cuits.set(MONO, { condicion: 'monotributo', puntos_venta: [{ nro: 1 }] });
fake.cuits.set('30500010912', { condicion: 'responsable_inscripto' });
fake.cuits.set('20111111112', { condicion: 'responsable_inscripto', inactivo: true });

async function login(cuit: string) {
  const { keyPem, csrPem } = generateKeyAndCsr(cuit, 'Prueba');
  const cert = fake.certificateFor(csrPem);
  const ta = await arca.loginCms(fake.urls.wsaa, signCms(loginTicketRequest('wsfe', new Date()), cert, keyPem), 5000);
  return { Token: ta.token, Sign: ta.sign, Cuit: cuit };
}
const auth: Record<string, Awaited<ReturnType<typeof login>>> = { [RI]: await login(RI), [MONO]: await login(MONO) };

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (d: Date) => `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}`;
const HOY = ymd(new Date());
const AYER = ymd(new Date(Date.now() - 86_400_000));

type Det = Record<string, unknown>;
/** A Factura B to a consumidor final for $121 (21 %), in the schema's order. */
const facturaB = (over: Det = {}): Det => ({
  Concepto: 1,
  DocTipo: 99,
  DocNro: 0,
  CbteDesde: 0,
  CbteHasta: 0,
  CbteFch: HOY,
  ImpTotal: '121.00',
  ImpTotConc: '0.00',
  ImpNeto: '100.00',
  ImpOpEx: '0.00',
  ImpTrib: '0.00',
  ImpIVA: '21.00',
  FchServDesde: undefined,
  FchServHasta: undefined,
  FchVtoPago: undefined,
  MonId: 'PES',
  MonCotiz: 1,
  CondicionIVAReceptorId: 5,
  Iva: { AlicIva: [{ Id: 5, BaseImp: '100.00', Importe: '21.00' }] },
  ...over,
});
const facturaA = (over: Det = {}) =>
  facturaB({ DocTipo: 80, DocNro: '30500010912', CondicionIVAReceptorId: 1, ...over });
const facturaC = (over: Det = {}) => facturaB({ ImpNeto: '121.00', ImpIVA: '0.00', Iva: undefined, ...over });

interface Answer {
  resultado: string;
  codes: string[];
  body: string;
}

/** FECAESolicitar as a raw request, numbered next unless the detail says otherwise. */
async function pedir(cuit: string, ptoVta: number, tipo: number, det: Det): Promise<Answer> {
  const nro = fake.approved(cuit, ptoVta, tipo).length + 1;
  const d = { ...det, CbteDesde: det.CbteDesde || nro, CbteHasta: det.CbteHasta || det.CbteDesde || nro };
  const args = {
    Auth: auth[cuit],
    FeCAEReq: { FeCabReq: { CantReg: 1, PtoVta: ptoVta, CbteTipo: tipo }, FeDetReq: { FECAEDetRequest: d } },
  };
  const xml = envelope(
    `<ns:FECAESolicitar>${toXml(args).replace(/<(\/?)(\w+)>/g, '<$1ns:$2>')}</ns:FECAESolicitar>`,
    'http://ar.gov.afip.dif.FEV1/',
  );
  const res = await fetch(fake.urls.wsfe, { method: 'POST', headers: { 'content-type': 'text/xml' }, body: xml });
  const body = await res.text();
  const r = node(node(parseBody(body).FECAESolicitarResponse).FECAESolicitarResult);
  const detResp = node(list(node(r.FeDetResp).FECAEDetResponse)[0]);
  const codes = [
    ...list(node(r.Errors).Err).map((e) => text(node(e).Code)),
    ...list(node(detResp.Observaciones).Obs).map((o) => text(node(o).Code)),
  ];
  return { resultado: text(node(r.FeCabResp).Resultado), codes, body };
}

/** The request refused with `code`, and its fixed version (the negative control) approved. */
async function refused(code: string, bad: () => Promise<Answer>, good: () => Promise<Answer>) {
  const r = await bad();
  expect(r.resultado, `${code}: ${r.body}`).toBe('R');
  expect(r.codes, code).toContain(code);
  const ok = await good();
  expect(ok.resultado, `${code} (control): ${ok.body}`).toBe('A');
  expect(ok.codes, `${code} (control)`).not.toContain(code);
}

describe('fake WSFE: the manual’s rejections, each with its negative control', () => {
  it('cabecera: 10000 emisor’s class, 10005 punto de venta, 10007 tipo', async () => {
    await refused(
      '10000',
      () => pedir(MONO, 1, 6, facturaB()),
      () => pedir(MONO, 1, 11, facturaC()),
    );
    for (const pv of [9, 2, 3]) {
      // Not enabled for the CUIT, blocked, CAEA only.
      await refused(
        '10005',
        () => pedir(RI, pv, 6, facturaB()),
        () => pedir(RI, 1, 6, facturaB()),
      );
    }
    await refused(
      '10007',
      () => pedir(RI, 1, 99, facturaB()),
      () => pedir(RI, 1, 6, facturaB()),
    );
  });

  it('numbering and dates: 10016', async () => {
    await refused(
      '10016',
      () => pedir(RI, 4, 6, facturaB({ CbteDesde: fake.approved(RI, 4, 6).length + 2 })),
      () => pedir(RI, 4, 6, facturaB()),
    );
    await refused(
      '10016',
      () => pedir(RI, 4, 6, facturaB({ CbteFch: AYER })),
      () => pedir(RI, 4, 6, facturaB({ CbteFch: HOY })),
    );
  });

  it('amounts and IVA: 10048, 10043–10045, 10065, 10056, 10019, 10020, 10022, 10023, 10061, 10051, 10070, 10071, 10047', async () => {
    const cases: [string, Det][] = [
      ['10048', { ImpTotal: '120.00' }],
      ['10043', { ImpTotConc: '-1.00', ImpTotal: '120.00' }],
      ['10044', { ImpOpEx: '-1.00', ImpTotal: '120.00' }],
      ['10045', { ImpNeto: '-100.00', ImpTotal: '-79.00', Iva: undefined }],
      ['10065', { ImpTotal: '-121.00' }],
      // Amounts with more than two decimals (the manual's precision).
      ['10056', { ImpTotal: '121.001' }],
      ['10056', { Iva: { AlicIva: [{ Id: 5, BaseImp: '100.00', Importe: '21.004' }] } }],
      ['10019', { Iva: { AlicIva: [{ Id: 7, BaseImp: '100.00', Importe: '21.00' }] } }],
      [
        '10020',
        {
          Iva: {
            AlicIva: [
              { Id: 5, BaseImp: '100.00', Importe: '21.00' },
              { Id: 4, BaseImp: '0.00', Importe: '0.00' },
            ],
          },
        },
      ],
      [
        '10022',
        {
          Iva: {
            AlicIva: [
              { Id: 5, BaseImp: '50.00', Importe: '10.50' },
              { Id: 5, BaseImp: '50.00', Importe: '10.50' },
            ],
          },
        },
      ],
      // ΣImporte ≠ ImpIVA is 10023; ΣBaseImp ≠ ImpNeto is 10061 (beyond a cent per rate).
      ['10023', { Iva: { AlicIva: [{ Id: 5, BaseImp: '100.00', Importe: '20.98' }] } }],
      ['10061', { Iva: { AlicIva: [{ Id: 5, BaseImp: '99.90', Importe: '21.00' }] } }],
      [
        '10051',
        { ImpTotal: '125.00', ImpIVA: '25.00', Iva: { AlicIva: [{ Id: 5, BaseImp: '100.00', Importe: '25.00' }] } },
      ],
      ['10070', { Iva: undefined, ImpIVA: '0.00', ImpTotal: '100.00' }],
    ];
    for (const [code, over] of cases) {
      await refused(
        code,
        () => pedir(RI, 1, 6, facturaB(over)),
        () => pedir(RI, 1, 6, facturaB()),
      );
    }
    // A cent per rate of rounding is accepted (10023, 10051): the manual's margin.
    const centavo = await pedir(
      RI,
      1,
      6,
      facturaB({ Iva: { AlicIva: [{ Id: 5, BaseImp: '100.00', Importe: '20.99' }] } }),
    );
    expect([centavo.resultado, centavo.codes], centavo.body).toEqual(['A', []]);
    await refused(
      '10071',
      () => pedir(MONO, 1, 11, facturaC({ Iva: { AlicIva: [{ Id: 5, BaseImp: '100.00', Importe: '21.00' }] } })),
      () => pedir(MONO, 1, 11, facturaC()),
    );
    await refused(
      '10047',
      () => pedir(MONO, 1, 11, facturaC({ ImpNeto: '100.00', ImpIVA: '21.00' })),
      () => pedir(MONO, 1, 11, facturaC()),
    );
    // A C carries no exento nor no gravado.
    for (const [code, over] of [
      ['10043', { ImpNeto: '100.00', ImpTotConc: '21.00' }],
      ['10044', { ImpNeto: '100.00', ImpOpEx: '21.00' }],
    ] as const) {
      await refused(
        code,
        () => pedir(MONO, 1, 11, facturaC(over)),
        () => pedir(MONO, 1, 11, facturaC()),
      );
    }
  });

  it('Concepto and the service’s dates: 10030, 10031, 10033, 10035, 10049, 10032, 10036', async () => {
    const servicio = (over: Det = {}) =>
      facturaB({ Concepto: 2, FchServDesde: HOY, FchServHasta: HOY, FchVtoPago: HOY, ...over });
    const cases: [string, Det][] = [
      ['10030', servicio({ Concepto: 4 })],
      ['10031', servicio({ FchServDesde: undefined })],
      ['10033', facturaB({ FchServDesde: HOY })],
      ['10035', facturaB({ FchServDesde: HOY, FchServHasta: HOY })],
      ['10049', facturaB({ Concepto: 2 })],
      ['10049', servicio({ FchServDesde: '20261340' })],
      ['10032', servicio({ FchServDesde: HOY, FchServHasta: AYER })],
      ['10036', servicio({ FchVtoPago: AYER })],
    ];
    for (const [code, bad] of cases) {
      await refused(
        code,
        () => pedir(RI, 1, 6, bad),
        () => pedir(RI, 1, 6, code === '10033' || code === '10035' ? facturaB() : servicio()),
      );
    }
    // The manual refuses no dates on a Concepto 1 when all three come (Mostrador never sends them).
    const productos = await pedir(RI, 1, 6, facturaB({ FchServDesde: HOY, FchServHasta: HOY, FchVtoPago: HOY }));
    expect([productos.resultado, productos.codes]).toEqual(['A', []]);
  });

  it('the currency: 10037 MonId, 10038 MonCotiz, 10039 MonCotiz 1 for pesos', async () => {
    const cases: [string, Det][] = [
      ['10037', { MonId: 'XXX' }],
      ['10037', { MonId: undefined }],
      ['10038', { MonId: 'DOL', MonCotiz: 0 }],
      ['10038', { MonCotiz: undefined }],
      ['10039', { MonCotiz: 2 }],
    ];
    for (const [code, bad] of cases) {
      await refused(
        code,
        () => pedir(RI, 1, 6, facturaB(bad)),
        () => pedir(RI, 1, 6, facturaB()),
      );
    }
  });

  it('the receptor: 10246, 10242, 10243, 10013, 10015, 10247', async () => {
    await refused(
      '10246',
      () => pedir(RI, 1, 6, facturaB({ CondicionIVAReceptorId: undefined })),
      () => pedir(RI, 1, 6, facturaB()),
    );
    await refused(
      '10242',
      () => pedir(RI, 1, 6, facturaB({ CondicionIVAReceptorId: 99 })),
      () => pedir(RI, 1, 6, facturaB()),
    );
    await refused(
      '10243',
      () => pedir(RI, 1, 6, facturaB({ CondicionIVAReceptorId: 1 })),
      () => pedir(RI, 1, 6, facturaB()),
    );
    await refused(
      '10013',
      () => pedir(RI, 1, 1, facturaA({ DocTipo: 96, DocNro: 30111222 })),
      () => pedir(RI, 1, 1, facturaA()),
    );
    await refused(
      '10015',
      () => pedir(RI, 1, 6, facturaB({ DocTipo: 86, DocNro: '20123456780' })),
      () => pedir(RI, 1, 6, facturaB({ DocTipo: 86, DocNro: '20123456786' })),
    );
    await refused(
      '10015',
      () => pedir(RI, 1, 6, facturaB({ DocTipo: 96, DocNro: 0 })),
      () => pedir(RI, 1, 6, facturaB({ DocTipo: 96, DocNro: 30111222 })),
    );
    const grande = {
      ImpTotal: '12100000.00',
      ImpNeto: '10000000.00',
      ImpIVA: '2100000.00',
      Iva: { AlicIva: [{ Id: 5, BaseImp: '10000000.00', Importe: '2100000.00' }] },
    };
    await refused(
      '10015',
      () => pedir(RI, 1, 6, facturaB(grande)),
      () => pedir(RI, 1, 6, facturaB({ ...grande, DocTipo: 96, DocNro: 30111222 })),
    );
    await refused(
      '10247',
      () => pedir(RI, 1, 1, facturaA({ DocNro: '20111111112' })),
      () => pedir(RI, 1, 1, facturaA()),
    );
  });

  it('observations on approved comprobantes: 10217 (A to a monotributista), 10063 (A to someone outside IVA and Monotributo)', async () => {
    // A condition that differs from ARCA's is no code of the manual: approved as it is.
    const distinta = await pedir(RI, 1, 1, facturaA({ CondicionIVAReceptorId: 6 }));
    expect([distinta.resultado, distinta.codes]).toEqual(['A', []]);
    // 20123456786 is a monotributista in the padrón.
    const mono = await pedir(RI, 1, 1, facturaA({ DocNro: '20123456786', CondicionIVAReceptorId: 6 }));
    expect([mono.resultado, mono.codes]).toEqual(['A', ['10217']]);
    expect(mono.body).toContain('Ley Nº 27.618');
    expect(mono.body).toMatch(/<FchProceso>\d{14}<\/FchProceso>/);
    // 27234567891 is IVA exento in the padrón.
    const exento = await pedir(RI, 1, 1, facturaA({ DocNro: '27234567891' }));
    expect([exento.resultado, exento.codes]).toEqual(['A', ['10063']]);
  });

  it('notas: 10197 without CbtesAsoc; 10041 observes an associated comprobante ARCA does not have; 10247 only observes', async () => {
    const factura = await pedir(RI, 1, 6, facturaB());
    expect(factura.resultado).toBe('A');
    const nro = fake.approved(RI, 1, 6).length;
    const asoc = (Nro: number) => ({ CbtesAsoc: { CbteAsoc: { Tipo: 6, PtoVta: 1, Nro, Cuit: RI, CbteFch: HOY } } });
    await refused(
      '10197',
      () => pedir(RI, 1, 8, facturaB()),
      () => pedir(RI, 1, 8, facturaB(asoc(nro))),
    );
    const sinFactura = await pedir(RI, 1, 8, facturaB(asoc(nro + 50)));
    expect([sinFactura.resultado, sinFactura.codes]).toEqual(['A', ['10041']]);
    // An inactive CUIT refuses a factura (above) but only observes a nota de crédito.
    const inactivo = { DocTipo: 80, DocNro: '20111111112', CondicionIVAReceptorId: 1 };
    const nc = await pedir(RI, 1, 3, facturaB({ ...inactivo, ...asoc(nro) }));
    expect([nc.resultado, nc.codes]).toEqual(['A', ['10247']]);
  });

  it('the lenient switch brings the old fake back; off again, it is strict', async () => {
    fake.setFaults({ lenient: true });
    try {
      const r = await pedir(RI, 9, 6, facturaB({ FchServDesde: HOY }));
      expect([r.resultado, r.codes]).toEqual(['A', []]);
    } finally {
      fake.setFaults({ lenient: false });
    }
    const strict = await pedir(RI, 9, 6, facturaB({ FchServDesde: HOY }));
    expect(strict.resultado).toBe('R');
    expect(strict.codes).toContain('10005');
    // reset() leaves it strict.
    fake.setFaults({ lenient: true });
    fake.reset();
    expect((await pedir(RI, 9, 6, facturaB())).codes).toContain('10005');
  });
});
