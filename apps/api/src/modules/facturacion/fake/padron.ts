import { envelope, text, toXml, type XmlNode } from '../soap.js';
import type { FakeArca } from './fake-arca.js';
import { authError } from './wsaa.js';

/* The fake's padrón A5 (ws_sr_constancia_inscripcion): getPersona_v2. */

const NS_A5 = 'http://a5.soap.ws.server.puc.sr/';

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

export function padron(f: FakeArca, op: string, arg: XmlNode): string {
  if (op !== 'getPersona_v2' && op !== 'getPersona') throw new Error(`Operación desconocida: ${op}`);
  const err = authError(f, arg, 'ws_sr_constancia_inscripcion'); // token, sign and cuitRepresentada
  if (err) throw new Error(err.Msg);
  const persona = PADRON_SEED[text(arg.idPersona)];
  if (!persona) throw new Error('No existe persona con ese Id');
  return envelope(
    `<ns2:${op}Response xmlns:ns2="${NS_A5}"><personaReturn>${toXml(persona)}</personaReturn></ns2:${op}Response>`,
    NS_A5,
  );
}
