import { describe, expect, it } from 'vitest';
import type { FacturacionConfig } from '@mostrador/shared/facturacion';
import { initialValues } from './config-form';

const saved = (over: Partial<FacturacionConfig>): FacturacionConfig => ({
  configurado: true,
  cuit: '30-71234567-1',
  razon_social: 'Almacén',
  condicion_iva: 'responsable_inscripto',
  inicio_actividades: null,
  iibb: null,
  domicilio_fiscal: null,
  punto_venta: 1,
  puntos_venta: [1],
  entorno: 'homologacion',
  facturar: 'elegir',
  tiene_certificado: false,
  tiene_clave: false,
  certificado_vence: null,
  certificado_cuit: null,
  caea_punto_venta: null,
  caea_tras_minutos: 30,
  actualizado_en: null,
  ...over,
});

describe('config form: the POS mode', () => {
  it('a new setup starts as a responsable inscripto who invoices every sale', () => {
    expect(initialValues(undefined)).toMatchObject({ condicion_iva: 'responsable_inscripto', facturar: 'siempre' });
    expect(initialValues(saved({ configurado: false, condicion_iva: null, facturar: 'elegir' }))).toMatchObject({
      facturar: 'siempre',
    });
  });

  it('a saved setup shows the mode the business chose', () => {
    expect(initialValues(saved({ facturar: 'elegir' }))).toMatchObject({ facturar: 'elegir' });
    expect(initialValues(saved({ condicion_iva: 'monotributo', facturar: 'siempre' }))).toMatchObject({
      facturar: 'siempre',
    });
  });
});
