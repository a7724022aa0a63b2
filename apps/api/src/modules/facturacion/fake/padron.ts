import { envelope, text, toXml, type XmlNode } from '../soap.js';
import type { FakeArca } from './fake-arca.js';
import { authError } from './wsaa.js';

/*
 * The fake's padrón A5 (ws_sr_constancia_inscripcion): getPersona_v2, answering `personaReturn`
 * as ARCA's WSDL (PersonaServiceA5) defines it: every xs:sequence in its order (datosGenerales,
 * datosMonotributo, datosRegimenGeneral, errorConstancia, …, metadata), so the answer is
 * schema-valid. An unknown id is a fault, as ARCA answers it ("No existe persona con ese Id").
 */

const NS_A5 = 'http://a5.soap.ws.server.puc.sr/';

interface Domicilio {
  codPostal: string;
  descripcionProvincia: string;
  direccion: string;
  idProvincia: number;
  localidad: string;
}

interface PersonaSeed {
  tipoPersona: 'FISICA' | 'JURIDICA';
  apellido?: string;
  nombre?: string;
  razonSocial?: string;
  estadoClave?: 'ACTIVO' | 'INACTIVO';
  domicilio?: Domicilio;
  /** datosMonotributo: its category (impuesto 20, MONOTRIBUTO). */
  monotributo?: { categoria: string; idCategoria: number };
  /** datosRegimenGeneral.impuesto: [idImpuesto, descripcionImpuesto]. */
  impuestos?: [number, string][];
  /** Only errorConstancia (no datosGenerales): ARCA gives no constancia for the id. */
  errorConstancia?: string[];
}

const PERIODO = 202401;

/** One personaReturn, elements in the WSDL's sequence order. */
function personaReturn(id: string, p: PersonaSeed): XmlNode {
  if (p.errorConstancia)
    return {
      errorConstancia: { apellido: p.apellido, error: p.errorConstancia, idPersona: id, nombre: p.nombre },
      metadata: { fechaHora: '2026-01-01T00:00:00.000-03:00', servidor: 'fake-arca' },
    };
  const d = p.domicilio;
  return {
    datosGenerales: {
      apellido: p.apellido,
      domicilioFiscal: d && {
        codPostal: d.codPostal,
        descripcionProvincia: d.descripcionProvincia,
        direccion: d.direccion,
        idProvincia: d.idProvincia,
        localidad: d.localidad,
        tipoDomicilio: 'FISCAL',
      },
      esSucesion: p.tipoPersona === 'FISICA' ? 'NO' : undefined,
      estadoClave: p.estadoClave ?? 'ACTIVO',
      idPersona: id,
      mesCierre: 12,
      nombre: p.nombre,
      razonSocial: p.razonSocial,
      tipoClave: 'CUIT',
      tipoPersona: p.tipoPersona,
    },
    datosMonotributo: p.monotributo && {
      categoriaMonotributo: {
        descripcionCategoria: p.monotributo.categoria,
        idCategoria: p.monotributo.idCategoria,
        idImpuesto: 20,
        periodo: PERIODO,
      },
      impuesto: [{ descripcionImpuesto: 'MONOTRIBUTO', estadoImpuesto: 'AC', idImpuesto: 20, periodo: PERIODO }],
    },
    datosRegimenGeneral: p.impuestos && {
      impuesto: p.impuestos.map(([idImpuesto, descripcionImpuesto]) => ({
        descripcionImpuesto,
        estadoImpuesto: 'AC',
        idImpuesto,
        periodo: PERIODO,
      })),
    },
    metadata: { fechaHora: '2026-01-01T00:00:00.000-03:00', servidor: 'fake-arca' },
  };
}

/** The people the padrón knows: one of each case the client must tell apart. */
export const PADRON_SEED: Record<string, PersonaSeed> = {
  // Responsable inscripto (impuesto 30, IVA).
  '30500010912': {
    tipoPersona: 'JURIDICA',
    razonSocial: 'DISTRIBUIDORA EL TREBOL SA',
    domicilio: {
      codPostal: '1043',
      descripcionProvincia: 'CIUDAD AUTONOMA BUENOS AIRES',
      direccion: 'AV CORRIENTES 1234',
      idProvincia: 0,
      localidad: 'CIUDAD AUTONOMA BUENOS AIRES',
    },
    impuestos: [
      [30, 'IVA'],
      [10, 'GANANCIAS SOCIEDADES'],
    ],
  },
  // Monotributista (datosMonotributo).
  '20123456786': {
    tipoPersona: 'FISICA',
    apellido: 'PEREZ',
    nombre: 'JUAN',
    domicilio: {
      codPostal: '2000',
      descripcionProvincia: 'SANTA FE',
      direccion: 'SAN MARTIN 55',
      idProvincia: 12,
      localidad: 'ROSARIO',
    },
    monotributo: { categoria: 'A LOCACIONES DE SERVICIO', idCategoria: 1 },
  },
  // IVA exento (impuesto 32).
  '27234567891': {
    tipoPersona: 'FISICA',
    apellido: 'GOMEZ',
    nombre: 'MARIA',
    domicilio: {
      codPostal: '5000',
      descripcionProvincia: 'CORDOBA',
      direccion: 'BELGRANO 900',
      idProvincia: 3,
      localidad: 'CORDOBA',
    },
    impuestos: [[32, 'IVA EXENTO']],
  },
  // IVA no alcanzado (impuesto 34).
  '30710000014': {
    tipoPersona: 'JURIDICA',
    razonSocial: 'CLUB SOCIAL LOS ALAMOS',
    domicilio: {
      codPostal: '1900',
      descripcionProvincia: 'BUENOS AIRES',
      direccion: 'CALLE 7 1050',
      idProvincia: 1,
      localidad: 'LA PLATA',
    },
    impuestos: [[34, 'IVA NO ALCANZADO']],
  },
  // A responsable inscripto whose key is inactive: ARCA rejects invoices to it (10247).
  '20400000019': {
    tipoPersona: 'FISICA',
    apellido: 'LOPEZ',
    nombre: 'ROBERTO',
    estadoClave: 'INACTIVO',
    domicilio: {
      codPostal: '4000',
      descripcionProvincia: 'TUCUMAN',
      direccion: 'MITRE 300',
      idProvincia: 24,
      localidad: 'SAN MIGUEL DE TUCUMAN',
    },
    impuestos: [[30, 'IVA']],
  },
  // Only errorConstancia: ARCA has the id but gives no constancia for it.
  '27111111117': {
    tipoPersona: 'FISICA',
    apellido: 'FERNANDEZ',
    nombre: 'ANA',
    errorConstancia: ['La clave ingresada no es una CUIT'],
  },
};

export function padron(f: FakeArca, op: string, arg: XmlNode): string {
  if (op !== 'getPersona_v2' && op !== 'getPersona') throw new Error(`Operación desconocida: ${op}`);
  const err = authError(f, arg, 'ws_sr_constancia_inscripcion'); // token, sign and cuitRepresentada
  if (err) throw new Error(err.Msg);
  const id = text(arg.idPersona);
  const persona = PADRON_SEED[id];
  if (!persona) throw new Error('No existe persona con ese Id');
  return envelope(
    `<ns2:${op}Response xmlns:ns2="${NS_A5}"><personaReturn>${toXml(personaReturn(id, persona))}</personaReturn></ns2:${op}Response>`,
    NS_A5,
  );
}
