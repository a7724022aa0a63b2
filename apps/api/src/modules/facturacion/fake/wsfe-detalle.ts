import { CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS, normalizeCuit } from '@mostrador/shared';
import { list, node, text, type XmlNode } from '../soap.js';
import type { Approved, FakeArca } from './fake-arca.js';
import {
  CONDICIONES,
  LETRA_DE_TIPO,
  MONEDAS,
  NOTAS,
  NOTAS_AB,
  NOTAS_CREDITO,
  TIPOS_DOC,
  TIPOS_IVA,
  cents,
  condicionDe,
  importes,
  inactivo,
  masDeDosDecimales,
  validYmd,
  type Letra,
  type Obs,
} from './tablas.js';

/*
 * One FECAEDetRequest of FECAESolicitar checked as the WSFEv1 developer manual (v4.7, RG 4291)
 * words its tables: the rejections ("validaciones excluyentes") with their codes, and the
 * observations ("no excluyentes") an approved comprobante carries. Codes and meanings only; the
 * texts are the fake's (ARCA's literal Msg is known for very few codes). Decision 0013 lists them.
 */

/** The detail's rejections (Observaciones with Resultado R) and its observations (approved). */
export function detalle(f: FakeArca, cuit: string, tipo: number, det: XmlNode, last: Approved | undefined) {
  const letra = LETRA_DE_TIPO[tipo];
  const rej: Obs[] = [];
  const obs: Obs[] = [];
  const strict = !f.faults.lenient;
  const nro = Number(text(det.CbteDesde));
  const fecha = text(det.CbteFch);
  const concepto = Number(text(det.Concepto));
  const m = importes(det);
  const alic = list(node(det.Iva).AlicIva).map(node);
  const condRaw = text(det.CondicionIVAReceptorId);
  const cond = Number(condRaw);
  const lastNro = last?.nro ?? 0;
  const notaAB = NOTAS_AB.has(tipo);
  /** A sum that may differ by up to a cent per rate informed (the manual's margin). */
  const difiere = (a: number, b: number) => Math.abs(a - b) > Math.max(1, alic.length);

  if (nro !== lastNro + 1 || text(det.CbteHasta) !== text(det.CbteDesde) || (last && fecha && fecha < last.fecha)) {
    rej.push({
      Code: 10016,
      Msg: `El numero o fecha del comprobante no se corresponde con el proximo a autorizar. Consultar metodo FECompUltimoAutorizado. Ultimo: ${lastNro}`,
    });
  }
  if (m.neto + m.iva + m.trib + m.exento + m.noGravado !== m.total) {
    rej.push({
      Code: 10048,
      Msg: 'El campo ImpTotal debe ser igual a la suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.',
    });
  }
  if (strict) {
    if (m.noGravado < 0 || (letra === 'C' && m.noGravado !== 0)) {
      rej.push({
        Code: 10043,
        Msg: 'El campo ImpTotConc (importe neto no gravado) no puede ser menor a cero; en comprobantes C debe ser cero.',
      });
    }
    if (m.exento < 0 || (letra === 'C' && m.exento !== 0)) {
      rej.push({
        Code: 10044,
        Msg: 'El campo ImpOpEx (importe exento) no puede ser menor a cero; en comprobantes C debe ser cero.',
      });
    }
    if (m.neto < 0)
      rej.push({ Code: 10045, Msg: 'El campo ImpNeto (importe neto gravado) no puede ser menor a cero.' });
    if (m.trib < 0) rej.push({ Code: 10046, Msg: 'El campo ImpTrib (importe de tributos) no puede ser menor a cero.' });
    if (m.total < 0) rej.push({ Code: 10065, Msg: 'El campo ImpTotal no puede ser menor a cero.' });
    const montos = [det.ImpTotal, det.ImpTotConc, det.ImpNeto, det.ImpOpEx, det.ImpTrib, det.ImpIVA];
    if ([...montos, ...alic.flatMap((a) => [a.BaseImp, a.Importe])].some(masDeDosDecimales)) {
      rej.push({
        Code: 10056,
        Msg: 'Los importes deben informarse con la precision indicada: 13 enteros y 2 decimales.',
      });
    }
  }
  if (letra === 'C') {
    if (alic.length) rej.push({ Code: 10071, Msg: 'Para comprobantes tipo C el objeto IVA no debe informarse.' });
    if (m.iva !== 0) rej.push({ Code: 10047, Msg: 'Para comprobantes tipo C el campo ImpIVA debe ser cero.' });
  }
  if (letra && letra !== 'C') {
    if (strict && m.neto > 0 && !alic.length) {
      rej.push({
        Code: 10070,
        Msg: 'Si el importe neto gravado es mayor a cero es obligatorio informar el array de IVA.',
      });
    }
    if (alic.some((a) => !TIPOS_IVA[Number(text(a.Id))])) {
      rej.push({
        Code: 10019,
        Msg: 'El campo Id de AlicIva debe ser un valor devuelto por el metodo FEParamGetTiposIva.',
      });
    }
    if (new Set(alic.map((a) => text(a.Id))).size !== alic.length) {
      rej.push({ Code: 10022, Msg: 'El campo Id de AlicIva no debe repetirse: totalizar por alicuota.' });
    }
    if (alic.some((a) => cents(a.BaseImp) < 0 || (!notaAB && cents(a.BaseImp) === 0))) {
      rej.push({ Code: 10020, Msg: 'El campo BaseImp de AlicIva es obligatorio y debe ser mayor a cero.' });
    }
    if (
      difiere(
        alic.reduce((s, a) => s + cents(a.Importe), 0),
        m.iva,
      )
    ) {
      rej.push({ Code: 10023, Msg: 'La suma de los campos Importe de AlicIva debe ser igual al campo ImpIVA.' });
    }
    if (
      !notaAB &&
      alic.length &&
      difiere(
        alic.reduce((s, a) => s + cents(a.BaseImp), 0),
        m.neto,
      )
    ) {
      rej.push({ Code: 10061, Msg: 'La suma de los campos BaseImp de AlicIva debe ser igual al campo ImpNeto.' });
    }
    const mal = alic.find((a) => {
      const rate = TIPOS_IVA[Number(text(a.Id))];
      return rate && Math.abs(cents(a.Importe) - Math.round((cents(a.BaseImp) * rate[1]) / 1000)) > 1;
    });
    if (strict && !notaAB && mal) {
      rej.push({
        Code: 10051,
        Msg: `Los importes informados en AlicIVA no se corresponden con los porcentajes (Id ${text(mal.Id)}).`,
      });
    }
  }
  if (strict) rej.push(...servicio(det, concepto, fecha), ...moneda(det));
  rej.push(...receptor(f, letra, tipo, det, condRaw, cond, strict, m.total, obs));
  if (NOTAS.has(tipo)) {
    const asoc = list(node(det.CbtesAsoc).CbteAsoc).map(node);
    if (!asoc.length && !det.PeriodoAsoc) {
      rej.push({
        Code: 10197,
        Msg: 'Para notas de debito y credito es obligatorio informar comprobantes asociados (CbtesAsoc) o el periodo asociado.',
      });
    }
    for (const a of asoc) {
      if (!f.book(cuit, Number(text(a.PtoVta)), Number(text(a.Tipo))).get(Number(text(a.Nro)))) {
        obs.push({
          Code: 10041,
          Msg: `El comprobante asociado (tipo ${text(a.Tipo)}, punto de venta ${text(a.PtoVta)}, numero ${text(a.Nro)}) no obra en las bases de ARCA.`,
        });
      }
    }
  }
  return { rej, obs };
}

/** Concepto and the service's dates. */
function servicio(det: XmlNode, concepto: number, fecha: string): Obs[] {
  const out: Obs[] = [];
  const [desde, hasta, vto] = [text(det.FchServDesde), text(det.FchServHasta), text(det.FchVtoPago)];
  if (![1, 2, 3].includes(concepto)) {
    out.push({
      Code: 10030,
      Msg: 'El campo Concepto debe ser un valor devuelto por el metodo FEParamGetTiposConcepto.',
    });
  }
  if ((hasta || vto) && !desde) {
    out.push({ Code: 10031, Msg: 'El campo FchServDesde es obligatorio si se informa FchServHasta o FchVtoPago.' });
  }
  if ((desde || vto) && !hasta) {
    out.push({ Code: 10033, Msg: 'El campo FchServHasta es obligatorio si se informa FchServDesde o FchVtoPago.' });
  }
  if ((desde || hasta) && !vto) {
    out.push({ Code: 10035, Msg: 'El campo FchVtoPago es obligatorio si se informa FchServDesde o FchServHasta.' });
  }
  const informadas = [desde, hasta, vto].filter(Boolean);
  if (((concepto === 2 || concepto === 3) && informadas.length < 3) || informadas.some((d) => !validYmd(d))) {
    out.push({
      Code: 10049,
      Msg: 'Si el Concepto es 2 o 3 los campos FchServDesde, FchServHasta y FchVtoPago son obligatorios, con formato yyyymmdd.',
    });
  }
  if (validYmd(desde) && validYmd(hasta) && desde > hasta) {
    out.push({ Code: 10032, Msg: 'El campo FchServDesde no puede ser posterior al campo FchServHasta.' });
  }
  if (validYmd(vto) && fecha && vto < fecha) {
    out.push({ Code: 10036, Msg: 'El campo FchVtoPago no puede ser anterior a la fecha del comprobante.' });
  }
  return out;
}

/** MonId and MonCotiz. */
function moneda(det: XmlNode): Obs[] {
  const out: Obs[] = [];
  const monId = text(det.MonId);
  const cotiz = text(det.MonCotiz);
  if (!MONEDAS.has(monId)) {
    out.push({
      Code: 10037,
      Msg: 'El campo MonId es obligatorio y debe ser un valor devuelto por FEParamGetTiposMonedas.',
    });
  }
  if (text(det.CanMisMonExt) !== 'S' && !(Number(cotiz) > 0)) {
    out.push({ Code: 10038, Msg: 'El campo MonCotiz es obligatorio y debe ser mayor a cero.' });
  } else if (monId === 'PES' && Number(cotiz) !== 1) {
    out.push({ Code: 10039, Msg: 'Si MonId es PES el campo MonCotiz es obligatorio e igual a 1.' });
  }
  return out;
}

/** The receptor: its condition, its document, and what ARCA knows of it (observations into `obs`). */
function receptor(
  f: FakeArca,
  letra: Letra | undefined,
  tipo: number,
  det: XmlNode,
  condRaw: string,
  cond: number,
  strict: boolean,
  total: number,
  obs: Obs[],
): Obs[] {
  const rej: Obs[] = [];
  const docTipo = Number(text(det.DocTipo));
  const docNro = text(det.DocNro);
  if (!condRaw) {
    rej.push({
      Code: 10246,
      Msg: 'Campo Condicion Frente al IVA del receptor es obligatorio conforme a lo reglamentado por la Resolucion General Nro 5616. Consultar metodo FEParamGetCondicionIvaReceptor.',
    });
  } else if (!CONDICIONES.some(([id]) => id === cond)) {
    rej.push({
      Code: 10242,
      Msg: 'El campo Condicion Frente al IVA del receptor no es un valor permitido. Consultar metodo FEParamGetCondicionIvaReceptor.',
    });
  } else if (letra && !CONDICIONES.find(([id]) => id === cond)![2].includes(letra)) {
    rej.push({
      Code: 10243,
      Msg: 'El campo Condicion Frente al IVA del receptor no es valido para la clase de comprobante informado. Consultar metodo FEParamGetCondicionIvaReceptor.',
    });
  }
  if (letra === 'A' && docTipo !== 80)
    rej.push({ Code: 10013, Msg: 'Para comprobantes clase A el campo DocTipo debe ser 80 (CUIT).' });
  if (strict) {
    const clave = [80, 86, 87].includes(docTipo);
    if (clave && !normalizeCuit(docNro)) {
      rej.push({
        Code: 10015,
        Msg: `El campo DocNro ${docNro} no es una CUIT, CUIL o CDI valida para DocTipo ${docTipo}.`,
      });
    } else if (docTipo !== 99 && !(Number(docNro) > 0)) {
      rej.push({ Code: 10015, Msg: 'El campo DocNro debe ser mayor a 0 si DocTipo no es 99.' });
    } else if (!TIPOS_DOC.some(([id]) => id === docTipo)) {
      rej.push({ Code: 10015, Msg: 'El campo DocTipo no es valido. Consultar metodo FEParamGetTiposDoc.' });
    }
  }
  if (letra === 'B' && docTipo === 99 && total >= CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS) {
    rej.push({
      Code: 10015,
      Msg: 'Si ImpTotal es mayor o igual al monto vigente para consumidores finales, DocTipo no puede ser 99: debe identificarse al receptor.',
    });
  }
  if (strict && docTipo === 80) {
    if (inactivo(f, docNro)) {
      // Excluyente, except on a nota de crédito, where it is only observed.
      (NOTAS_CREDITO.has(tipo) ? obs : rej).push({
        Code: 10247,
        Msg: `La CUIT receptora ${docNro} esta inactiva o es invalida.`,
      });
    }
    const held = condicionDe(f, docNro);
    if (letra === 'A' && held && held !== 'responsable_inscripto' && held !== 'monotributo') {
      obs.push({
        Code: 10063,
        Msg: 'Para comprobantes clase A el receptor debe estar activo en el IVA o en el Monotributo.',
      });
    }
    if (letra === 'A' && held === 'monotributo') {
      obs.push({
        Code: 10217,
        Msg: 'El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Regimen de Sostenimiento e Inclusion Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618.',
      });
    }
  }
  return rej;
}
