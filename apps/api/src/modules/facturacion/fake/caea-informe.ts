import { CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS } from '@mostrador/shared';
import { list, node, text, type XmlNode } from '../soap.js';
import { hoyAr, porCodigo, puntoCaea } from './caea.js';
import type { Approved, FakeArca } from './fake-arca.js';
import {
  CONDICIONES,
  LETRA_DE_TIPO,
  MONEDAS,
  NOTAS,
  NOTAS_AB,
  TIPOS_DOC,
  TIPOS_IVA,
  cents,
  condicionDe,
  diasEntre,
  importes,
  inactivo,
  proceso,
  validYmd,
  type Obs,
} from './tablas.js';

/*
 * The fake's FECAEARegInformativo (decision 0047): the report of comprobantes issued under a CAEA,
 * with the codes of the WSFEv1 developer manual's own tables for it (v4.7, RG 4291), which are not
 * FECAESolicitar's: the cabecera is 700 (tipo), 1300 and 701 (a punto de venta enabled for CAEA,
 * not blocked); each detail is rejected by 782/780/705 (the CAEA: present, known, of the CUIT),
 * 783/702 (CbteFch, within the CAEA's vigencia), 1414 (reported only after the vigencia began),
 * 703/704 (numbering and dates continue the punto de venta's), 1440/1441 (CbteFchHsGen on a
 * contingency punto de venta), 1491 (a nota without CbtesAsoc) and the rest of the table, while
 * many checks that reject a CAE only observe here (724 the total, 725/1408 the Iva sums, 801 an
 * associated comprobante ARCA does not have, 1424 a CAEA informed without movement there). The
 * manual has no rule about FchTopeInf: a late report is taken (decision 0047). A batch stops at
 * its first rejected detail; the ones after it are not processed.
 */

/** The comprobante types FECAEARegInformativo takes (700). */
const TIPOS_CAEA = new Set([
  1, 2, 3, 4, 6, 7, 8, 9, 11, 12, 13, 15, 51, 52, 53, 54, 63, 64, 201, 202, 203, 206, 207, 208, 211, 212, 213,
]);

/** FECAEARegInformativo's answer for a FeCAEARegInfReq. */
export function informar(f: FakeArca, cuit: string, req: XmlNode): Record<string, unknown> {
  const cab = node(req.FeCabReq);
  const pv = Number(text(cab.PtoVta));
  const tipo = Number(text(cab.CbteTipo));
  const dets = list(node(req.FeDetReq).FECAEADetRequest).map(node);
  const now = f.now();
  const cabResp = (r: 'A' | 'R' | 'P') => ({
    Cuit: cuit,
    PtoVta: pv,
    CbteTipo: tipo,
    FchProceso: proceso(now),
    CantReg: dets.length,
    Resultado: r,
    Reproceso: 'N',
  });
  const detResp = (det: XmlNode, r: 'A' | 'R', obs: Obs[]) => ({
    Concepto: Number(text(det.Concepto)) || 0,
    DocTipo: Number(text(det.DocTipo)) || 0,
    DocNro: text(det.DocNro) || '0',
    CbteDesde: Number(text(det.CbteDesde)) || 0,
    CbteHasta: Number(text(det.CbteHasta)) || 0,
    CbteFch: text(det.CbteFch),
    Resultado: r,
    ...(obs.length ? { Observaciones: { Obs: obs } } : {}),
    CAEA: text(det.CAEA),
  });
  const cantReg = Number(text(cab.CantReg));
  const cabErrors: Obs[] = [];
  if (!(cantReg >= 1 && cantReg <= 9998))
    cabErrors.push({ Code: 10001, Msg: 'El campo CantReg debe estar comprendido entre 1 y 9998.' });
  else if (cantReg !== dets.length) {
    cabErrors.push({
      Code: 10002,
      Msg: `Campo CantReg debe ser igual a lo informado en detalle. Informado: ${cantReg}, Enviado:${dets.length}`,
    });
  }
  if (!TIPOS_CAEA.has(tipo) || !LETRA_DE_TIPO[tipo])
    cabErrors.push({ Code: 700, Msg: 'Campo CbteTipo no se corresponde con alguno de los habilitados.' });
  if (!(pv >= 1 && pv <= 99998))
    cabErrors.push({ Code: 1300, Msg: 'Campo PtoVta debe estar comprendido entre 1 y 99998.' });
  else if (!puntoCaea(f, cuit, pv)) {
    cabErrors.push({
      Code: 701,
      Msg: `El punto de venta ${pv} debe ser del tipo habilitado para CAEA y no estar bloqueado. Consultar metodo FEParamGetPtosVenta.`,
    });
  }
  if (cabErrors.length) {
    return {
      FeCabResp: cabResp('R'),
      FeDetResp: { FECAEADetResponse: dets.map((d) => detResp(d, 'R', [])) },
      Errors: { Err: cabErrors },
    };
  }
  const book = f.book(cuit, pv, tipo);
  let parado = false;
  const out = dets.map((det) => {
    // After a rejected detail the rest are not processed (numbering and dates are sequential).
    if (parado) return detResp(det, 'R', []);
    const last = book.size ? book.get(Math.max(...book.keys())) : undefined;
    const { rej, obs } = detalleInforme(f, cuit, pv, tipo, det, last);
    if (f.faults.reject_code)
      rej.push({ Code: f.faults.reject_code, Msg: `Rechazo simulado (${f.faults.reject_code}).` });
    if (rej.length) {
      parado = true;
      return detResp(det, 'R', [...rej, ...obs]);
    }
    const code = text(det.CAEA);
    const nro = Number(text(det.CbteDesde));
    book.set(nro, {
      nro,
      fecha: text(det.CbteFch),
      cae: code,
      vto: porCodigo(f, code)!.hasta,
      total: cents(det.ImpTotal),
      docTipo: Number(text(det.DocTipo)),
      docNro: text(det.DocNro),
      det: Object.fromEntries(Object.entries(det).filter(([k]) => k !== 'CAEA' && k !== 'CbteFchHsGen')),
      proceso: proceso(now),
      emision: 'CAEA',
      obs: obs.map((o) => String(o.Code)),
    });
    return detResp(det, 'A', obs);
  });
  const aprobados = out.filter((d) => d.Resultado === 'A').length;
  return {
    FeCabResp: cabResp(aprobados === out.length ? 'A' : aprobados ? 'P' : 'R'),
    FeDetResp: { FECAEADetResponse: out },
  };
}

/** One FECAEADetRequest: its rejections and, if none, its observations. */
function detalleInforme(f: FakeArca, cuit: string, pv: number, tipo: number, det: XmlNode, last: Approved | undefined) {
  const letra = LETRA_DE_TIPO[tipo];
  const rej: Obs[] = [];
  const obs: Obs[] = [];
  const code = text(det.CAEA);
  const fecha = text(det.CbteFch);
  const generado = text(det.CbteFchHsGen);
  const desde = Number(text(det.CbteDesde));
  const hasta = Number(text(det.CbteHasta));
  const concepto = Number(text(det.Concepto));
  const docTipo = Number(text(det.DocTipo));
  const docNro = text(det.DocNro);
  const m = importes(det);
  const alic = list(node(det.Iva).AlicIva).map(node);
  const notaAB = NOTAS_AB.has(tipo);
  const difiere = (a: number, b: number) => Math.abs(a - b) > Math.max(1, alic.length);

  // The CAEA and the dates of its fortnight.
  const c = porCodigo(f, code);
  if (!/^\d{14}$/.test(code)) rej.push({ Code: 782, Msg: 'El <CAEA> es obligatorio informarlo.' });
  else if (!c) rej.push({ Code: 780, Msg: 'El CAEA no se encuentra registrado en las bases de la Administracion.' });
  else if (c.cuit !== cuit) rej.push({ Code: 705, Msg: 'El CAEA debe corresponder a la CUIT que esta informando.' });
  if (!validYmd(fecha)) rej.push({ Code: 783, Msg: 'El campo CbteFch es obligatorio, con formato yyyymmdd.' });
  if (c && c.cuit === cuit) {
    if (validYmd(fecha) && (fecha < c.desde || fecha > c.hasta)) {
      rej.push({
        Code: 702,
        Msg: `El campo CbteFch debe estar comprendido en la vigencia del CAEA (${c.desde} a ${c.hasta}).`,
      });
    }
    if (hoyAr(f) <= c.desde) {
      rej.push({
        Code: 1414,
        Msg: 'Un comprobante con CAEA se informa despues de la fecha de entrada en vigencia del CAEA vinculado.',
      });
    }
  }
  if (!(desde >= 1 && desde <= 99_999_999 && hasta >= 1 && hasta <= 99_999_999))
    rej.push({ Code: 784, Msg: 'Los campos CbteDesde y CbteHasta son obligatorios, entre 1 y 99999999.' });
  if (desde !== (last?.nro ?? 0) + 1) {
    rej.push({
      Code: 703,
      Msg: `El numero de comprobante debe ser mayor en 1 al ultimo informado. Consultar metodo FECompUltimoAutorizado. Ultimo: ${last?.nro ?? 0}`,
    });
  }
  if (last && validYmd(fecha) && fecha < last.fecha) {
    rej.push({ Code: 704, Msg: 'La fecha del comprobante debe ser igual o posterior a la del ultimo informado.' });
  }
  if (letra !== 'B' && hasta !== desde)
    rej.push({ Code: letra === 'C' ? 1433 : 711, Msg: 'El campo CbteHasta debe ser igual a CbteDesde.' });
  if (!generado)
    rej.push({ Code: 1440, Msg: 'En puntos de venta de contingencia CAEA el campo CbteFchHsGen es obligatorio.' });
  else if (!/^\d{14}$/.test(generado) || !validYmd(generado.slice(0, 8)))
    rej.push({ Code: 1441, Msg: 'El campo CbteFchHsGen debe tener el formato yyyymmddhhmiss.' });

  // The amounts.
  if (![1, 2, 3].includes(concepto))
    rej.push({ Code: 713, Msg: 'El campo Concepto es obligatorio y debe ser 1, 2 o 3 (FEParamGetTiposConcepto).' });
  if (m.noGravado < 0) rej.push({ Code: 717, Msg: 'El campo ImpTotConc no puede ser menor a cero.' });
  if (m.exento < 0) rej.push({ Code: 718, Msg: 'El campo ImpOpEx no puede ser menor a cero.' });
  if (m.neto < 0) rej.push({ Code: 719, Msg: 'El campo ImpNeto no puede ser menor a cero.' });
  if (m.trib < 0) rej.push({ Code: 723, Msg: 'El campo ImpTrib no puede ser menor a cero.' });
  if (m.iva < 0) rej.push({ Code: 1407, Msg: 'El campo ImpIVA no puede ser menor a cero.' });
  if (m.total < 0) rej.push({ Code: 1409, Msg: 'El campo ImpTotal no puede ser menor a cero.' });
  if (!MONEDAS.has(text(det.MonId)))
    rej.push({ Code: 1401, Msg: 'El campo MonId es obligatorio (FEParamGetTiposMonedas).' });
  const cotiz = Number(text(det.MonCotiz));
  if (!(cotiz > 0) || (text(det.MonId) === 'PES' && cotiz !== 1))
    rej.push({ Code: 726, Msg: 'El campo MonCotiz es obligatorio, mayor a cero, e igual a 1 para PES.' });
  if (letra === 'C') {
    if (m.noGravado !== 0) rej.push({ Code: 1434, Msg: 'Para comprobantes tipo C el campo ImpTotConc debe ser cero.' });
    if (m.exento !== 0) rej.push({ Code: 1435, Msg: 'Para comprobantes tipo C el campo ImpOpEx debe ser cero.' });
    if (m.iva !== 0) rej.push({ Code: 1438, Msg: 'Para comprobantes tipo C el campo ImpIVA debe ser cero.' });
    if (alic.length)
      rej.push({ Code: 1443, Msg: 'Si el tipo de comprobante es C el array de IVA no debe informarse.' });
    if (m.total !== m.neto + m.trib)
      rej.push({ Code: 1439, Msg: 'Para comprobantes tipo C el campo ImpTotal debe ser igual a ImpNeto + ImpTrib.' });
  } else {
    if (m.iva > 0 && !alic.length)
      rej.push({ Code: 715, Msg: 'Si ImpIVA es mayor a 0 el objeto Iva y AlicIva son obligatorios.' });
    if (alic.some((a) => !TIPOS_IVA[Number(text(a.Id))]))
      rej.push({ Code: 1000, Msg: 'El campo Id de AlicIva debe ser un valor de FEParamGetTiposIva.' });
    if (new Set(alic.map((a) => text(a.Id))).size !== alic.length)
      rej.push({ Code: 1003, Msg: 'El campo Id de AlicIva no debe repetirse.' });
    if (alic.some((a) => cents(a.Importe) < 0))
      rej.push({ Code: 1008, Msg: 'El campo Importe de AlicIva es obligatorio, mayor o igual a cero.' });
    if (alic.some((a) => cents(a.BaseImp) < 0 || (!notaAB && cents(a.BaseImp) === 0)))
      rej.push({ Code: 1009, Msg: 'El campo BaseImp de AlicIva es obligatorio y debe ser mayor a cero.' });
    // Observed only (approved with them).
    if (m.neto + m.iva + m.trib + m.exento + m.noGravado !== m.total) {
      obs.push({
        Code: 724,
        Msg: "El campo 'Importe Total' ImpTotal, debe ser igual a la suma de ImpTotConc + ImpNeto + ImpOpEx + ImpTrib + ImpIVA.",
      });
    }
    if (
      alic.length &&
      difiere(
        alic.reduce((s, a) => s + cents(a.Importe), 0),
        m.iva,
      )
    )
      obs.push({ Code: 725, Msg: 'El campo ImpIVA debe ser igual a la suma de los Importe de AlicIva.' });
    if (
      !notaAB &&
      alic.length &&
      difiere(
        alic.reduce((s, a) => s + cents(a.BaseImp), 0),
        m.neto,
      )
    )
      obs.push({ Code: 1408, Msg: 'La suma de los BaseImp de AlicIva debe ser igual a ImpNeto.' });
    if (m.neto > 0 && !alic.length)
      obs.push({ Code: 1427, Msg: 'Si ImpNeto es mayor a 0 el objeto AlicIva es obligatorio.' });
    const mal = alic.find((a) => {
      const rate = TIPOS_IVA[Number(text(a.Id))];
      return rate && Math.abs(cents(a.Importe) - Math.round((cents(a.BaseImp) * rate[1]) / 1000)) > 1;
    });
    if (!notaAB && mal)
      obs.push({ Code: 1006, Msg: 'Los importes informados en AlicIVA no se corresponden con los porcentajes.' });
  }

  // The receptor.
  const condRaw = text(det.CondicionIVAReceptorId);
  const condicion = CONDICIONES.find(([id]) => id === Number(condRaw));
  if (!condRaw) {
    rej.push({
      Code: 826,
      Msg: 'Campo Condicion Frente al IVA del receptor es obligatorio conforme a la Resolucion General Nro 5616.',
    });
  } else if (!condicion) {
    rej.push({
      Code: 823,
      Msg: 'La Condicion de IVA del receptor no es un valor permitido (FEParamGetCondicionIvaReceptor).',
    });
  } else if (letra && !condicion[2].includes(letra)) {
    obs.push({
      Code: 824,
      Msg: 'La Condicion de IVA del receptor no es valida para la clase de comprobante informado.',
    });
  }
  if (letra === 'A' && docTipo !== 80)
    rej.push({ Code: 1403, Msg: 'Para comprobantes clase A el campo DocTipo debe ser 80 (CUIT).' });
  if (letra !== 'A') {
    if (docTipo !== 99 && !TIPOS_DOC.some(([id]) => id === docTipo))
      rej.push({ Code: 1404, Msg: 'El campo DocTipo debe ser un valor de FEParamGetTiposDoc.' });
    if (m.total >= CONSUMIDOR_FINAL_SIN_DOC_MAX_CENTS && (docTipo === 99 || !(Number(docNro) > 0)))
      rej.push({ Code: 1417, Msg: 'Por el importe, DocTipo debe ser distinto de 99 y DocNro mayor a 0.' });
    else if (docTipo === 99 && Number(docNro) !== 0)
      rej.push({ Code: 1418, Msg: 'Si DocTipo es 99 el campo DocNro debe ser 0.' });
    else if (docTipo !== 99 && !(Number(docNro) > 0))
      rej.push({ Code: 1419, Msg: 'Si DocTipo no es 99 el campo DocNro debe ser mayor a 0.' });
  }
  if (docTipo === 80) {
    if (inactivo(f, docNro)) obs.push({ Code: 827, Msg: 'La CUIT receptora informada esta inactiva o es invalida.' });
    const held = condicionDe(f, docNro);
    if (letra === 'A' && held && held !== 'responsable_inscripto' && held !== 'monotributo')
      obs.push({
        Code: 1402,
        Msg: 'Para comprobantes tipo A el receptor debe estar activo en el IVA o el Monotributo.',
      });
    if (letra === 'A' && held === 'monotributo') {
      obs.push({
        Code: 1516,
        Msg: 'El credito fiscal discriminado en el presente comprobante solo podra ser computado a efectos del Regimen de Sostenimiento e Inclusion Fiscal para Pequeños Contribuyentes de la Ley Nº 27.618.',
      });
    }
  }

  // The service's dates (observed) and the generation time.
  const servicio = [text(det.FchServDesde), text(det.FchServHasta), text(det.FchVtoPago)];
  if (concepto === 1) {
    if (servicio[0]) obs.push({ Code: 727, Msg: 'FchServDesde debe informarse solo si Concepto es 2 o 3.' });
    if (servicio[1]) obs.push({ Code: 728, Msg: 'FchServHasta debe informarse solo si Concepto es 2 o 3.' });
    if (servicio[2]) obs.push({ Code: 729, Msg: 'FchVtoPago debe informarse solo si Concepto es 2 o 3.' });
  }
  if (servicio.some((d) => d && !validYmd(d)))
    obs.push({ Code: 1413, Msg: 'Las fechas del servicio deben tener el formato yyyymmdd.' });
  if (validYmd(servicio[0]) && validYmd(servicio[1]) && servicio[0] > servicio[1])
    obs.push({ Code: 1412, Msg: 'FchServDesde no puede ser posterior a FchServHasta.' });
  if (validYmd(servicio[2]) && validYmd(fecha) && servicio[2] < fecha)
    obs.push({ Code: 1411, Msg: 'FchVtoPago debe ser igual o posterior a la fecha del comprobante.' });
  if (validYmd(fecha) && /^\d{14}$/.test(generado) && validYmd(generado.slice(0, 8))) {
    const margen = concepto === 1 ? 5 : 10;
    if (Math.abs(diasEntre(generado.slice(0, 8), fecha)) > margen) {
      obs.push({
        Code: 1445,
        Msg: `El campo CbteFch debe estar en el rango N-${margen} y N+${margen} siendo N la fecha de CbteFchHsGen.`,
      });
    }
  }

  // Associated comprobantes, and a CAEA informed without movement on this punto de venta.
  const asoc = list(node(det.CbtesAsoc).CbteAsoc).map(node);
  if (det.CbtesAsoc !== undefined && !asoc.length)
    rej.push({ Code: 800, Msg: 'Si envia CbtesAsoc, CbteAsoc es obligatorio y no debe estar vacio.' });
  if (NOTAS.has(tipo) && !asoc.length && !det.PeriodoAsoc) {
    rej.push({
      Code: 1491,
      Msg: 'Si el comprobante es Debito o Credito se debe informar al menos un comprobante asociado o el periodo asociado.',
    });
  }
  for (const a of asoc) {
    if (!(Number(text(a.PtoVta)) > 0) || !(Number(text(a.Nro)) > 0) || !(Number(text(a.Tipo)) > 0)) {
      rej.push({ Code: 802, Msg: 'CbteAsoc debe enviarse con Tipo, PtoVta y Nro mayores a 0.' });
    } else if (!f.book(cuit, Number(text(a.PtoVta)), Number(text(a.Tipo))).get(Number(text(a.Nro)))) {
      obs.push({
        Code: 801,
        Msg: `El comprobante asociado (tipo ${text(a.Tipo)}, punto de venta ${text(a.PtoVta)}, numero ${text(a.Nro)}) no obra en las bases del organismo.`,
      });
    }
  }
  if (f.sinMovimiento.has(`${code}|${pv}`))
    obs.push({ Code: 1424, Msg: 'El CAEA y punto de venta no debe estar informado sin movimientos.' });
  return { rej, obs };
}
