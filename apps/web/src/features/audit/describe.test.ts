import { describe, expect, it } from 'vitest';
import { DEFAULT_FORMATTING } from '@/lib/format';
import { ACTION_LABELS, fieldLabel, showValue } from './describe';

const f = DEFAULT_FORMATTING;
const nbsp = (s: string) => s.replace(/\u00a0/g, ' ');

describe('the audit log in human words', () => {
  it('labels fields, and names the ones it does not know from their key', () => {
    expect(fieldLabel('precio_venta')).toBe('Precio de venta');
    expect(fieldLabel('categoria_id')).toBe('Categoría');
    expect(fieldLabel('fondo_de_reserva')).toBe('Fondo de reserva');
    expect(fieldLabel('rubro_id')).toBe('Rubro');
  });

  it('formats money, quantities, dates, booleans, nothing and ids as people read them', () => {
    expect(nbsp(showValue('precio_venta', 15487.06, f))).toBe('$ 15.487,06');
    expect(showValue('stock_actual', 2.5, f)).toBe('2,5');
    expect(showValue('descuento_maximo', 10, f)).toBe('10 %');
    expect(showValue('fecha_vencimiento', '2026-04-10', f)).toBe('10/04/2026');
    expect(showValue('activo', false, f)).toBe('No');
    expect(showValue('observaciones', null, f)).toBe('—');
    expect(showValue('categoria_id', 'c1', f, { c1: 'Bebidas' })).toBe('Bebidas');
    expect(showValue('categoria_id', 'c2', f, {})).toBe('un registro que ya no existe');
  });

  it('summarises lists and objects instead of printing JSON', () => {
    expect(showValue('items', [{ nombre: 'Yerba' }, { nombre: 'Azúcar' }], f)).toBe('Yerba, Azúcar');
    expect(showValue('contado', [{ a: 1 }, { a: 2 }, { a: 3 }], f)).toBe('3 elementos');
    expect(showValue('permissions', { a: true, b: false, c: true }, f)).toBe('2 de 3 activados');
    expect(nbsp(showValue('balanza', { prefijo: 20, activo: true }, f))).toBe('Prefijo: 20 · Activo: Sí');
  });

  it('shows a refused attempt at the counter in Spanish, with its amounts as money', () => {
    expect(ACTION_LABELS.intento_rechazado).toBe('Intento rechazado');
    expect(nbsp(showValue('saldo', 9000, f))).toBe('$ 9.000,00');
    expect(nbsp(showValue('limite_credito', 10000, f))).toBe('$ 10.000,00');
    expect(fieldLabel('producto_id')).toBe('Producto');
  });
});

describe('a sale authorized with a PIN in the audit log', () => {
  it('names who authorized and lists what they authorized', () => {
    expect(fieldLabel('autorizado_por_id')).toBe('Autorizó');
    expect(fieldLabel('autorizador_id')).toBe('Autorizador');
    expect(showValue('autorizado_por_id', 'u1', f, { u1: 'Marcelo Prueba' })).toBe('Marcelo Prueba');
    expect(
      showValue('autorizado', ['Descuento mayor al máximo permitido', 'Venta sobre el límite de crédito'], f),
    ).toBe('Descuento mayor al máximo permitido, Venta sobre el límite de crédito');
  });
});
