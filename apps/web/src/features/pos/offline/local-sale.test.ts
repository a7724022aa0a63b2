import { describe, expect, it } from 'vitest';
import type { MedioPago } from '@mostrador/shared/caja';
import { addItem, type CatalogItem } from '../cart';
import { localSale } from './local-sale';
import { whatToDo } from './offline-panel';
import type { QueueItem } from './offline-pos';

const yerba: CatalogItem = {
  id: 'p1',
  tipo: 'producto',
  nombre: 'Yerba',
  codigo: 'Y1',
  codigo_barras: null,
  precio: 400_000,
  stock: 10_000,
  unidad: 'unidad',
};
const medios: MedioPago[] = [
  { id: 'm1', nombre: 'Efectivo', tipo: 'efectivo', ajuste_porcentaje: 0, activo: true, orden: 0 },
  { id: 'm2', nombre: 'Crédito 3 cuotas', tipo: 'credito', ajuste_porcentaje: 10, activo: true, orden: 1 },
];

describe('the ticket of a sale still on the device (issue 18)', () => {
  it('has no number (the ticket says pendiente de sincronizar), its lines, customer and the total with the medio', () => {
    const lines = addItem([], yerba, 2000);
    const s = localSale({
      id: 'k1',
      lines,
      subtotal: 800_000,
      descuento: 0,
      total: 880_000,
      pagos: [{ medio_pago_id: 'm2', monto: 8000 }],
      medios,
      cliente: { id: 'c1', nombre: 'Ana', apellido: 'Pérez' },
      vendedor: null,
      observaciones: null,
      turnoId: 't1',
    });
    expect(s).toMatchObject({
      numero: 0,
      cliente_nombre: 'Ana Pérez',
      subtotal: 8000,
      ajuste: 800,
      total: 8800,
      metodo_pago: 'tarjeta_credito',
      turno_id: 't1',
    });
    expect(s.items).toEqual([
      expect.objectContaining({ nombre: 'Yerba', cantidad: 2, precio_unitario: 4000, subtotal: 8000 }),
    ]);
    expect(s.pagos[0]).toMatchObject({ nombre: 'Crédito 3 cuotas', total: 8800 });
  });
});

describe('what to do about a refused item', () => {
  const item = (code: string): QueueItem => ({
    id: 'x',
    seq: 1,
    businessId: 'b',
    userId: 'u',
    tipo: 'venta',
    path: '/ventas/record-sale',
    body: {},
    creada_en: '',
    descripcion: 'Venta por $ 1',
    estado: 'rechazada',
    error: { code, detail: 'motivo' },
  });
  it('says how to fix each kind of refusal, with voseo', () => {
    expect(whatToDo(item('TURNO_CLOSED'))).toContain('abrí un turno');
    expect(whatToDo(item('CREDIT_LIMIT'))).toContain('límite de crédito');
    expect(whatToDo(item('OTRA_COSA'))).toContain('Reintentar');
  });
});
