import { formatDate, formatDateTime, formatMoney, formatNumber, type Formatting } from '@/lib/format';

/*
 * The audit log in words people use: field labels instead of column names, names instead of ids,
 * money and dates formatted, "—" for nothing.
 */

export const ACTION_LABELS: Record<string, string> = {
  crear: 'Creó',
  actualizar: 'Modificó',
  eliminar: 'Eliminó',
  anular: 'Anuló',
  aprobar: 'Aprobó',
  rechazar: 'Rechazó',
  ajustar: 'Ajustó',
  importar: 'Importó',
  pagar: 'Pagó',
  abrir: 'Abrió',
  cerrar: 'Cerró',
  recibir: 'Recibió',
  asignar: 'Asignó',
  // A refused attempt at the counter (a price, a discount, a sale over the credit limit).
  intento_rechazado: 'Intento rechazado',
};

const FIELD_LABELS: Record<string, string> = {
  nombre: 'Nombre',
  apellido: 'Apellido',
  descripcion: 'Descripción',
  codigo: 'Código',
  codigo_barras: 'Código de barras',
  precio: 'Precio',
  precio_compra: 'Costo',
  precio_venta: 'Precio de venta',
  precio_unitario: 'Precio unitario',
  precio_lista: 'Precio de lista',
  stock_actual: 'Stock',
  stock_minimo: 'Stock mínimo',
  controla_stock: 'Controla stock',
  unidad: 'Unidad',
  categoria_id: 'Categoría',
  cliente_id: 'Cliente',
  proveedor_id: 'Proveedor',
  medio_pago_id: 'Medio de pago',
  turno_id: 'Turno',
  caja_id: 'Caja',
  movimiento_id: 'Movimiento',
  compra_id: 'Compra',
  venta_id: 'Venta',
  usuario_id: 'Usuario',
  activo: 'Activo',
  estado: 'Estado',
  monto: 'Monto',
  monto_pagado: 'Pagado',
  total: 'Total',
  subtotal: 'Subtotal',
  descuento: 'Descuento',
  costo: 'Costo',
  fondo_inicial: 'Fondo inicial',
  limite_credito: 'Límite de crédito',
  metodo_pago: 'Medio de pago',
  tipo: 'Tipo',
  fecha: 'Fecha',
  fecha_emision: 'Emisión',
  fecha_vencimiento: 'Vencimiento',
  fecha_pago: 'Fecha de pago',
  motivo: 'Motivo',
  observaciones: 'Observaciones',
  cantidad: 'Cantidad',
  origen: 'Origen',
  email: 'E-mail',
  telefono: 'Teléfono',
  direccion: 'Dirección',
  cuit: 'CUIT',
  items: 'Ítems',
  pagos: 'Pagos',
  numero: 'Número',
  rol: 'Rol',
  permissions: 'Permisos',
  ver_costos: 'Ve costos',
  cambiar_precios: 'Cambia precios',
  descuento_maximo: 'Descuento máximo',
  exceder_credito: 'Vende sobre el límite de crédito',
  currency: 'Moneda',
  locale: 'Idioma',
  timezone: 'Zona horaria',
  caja_requiere_turno: 'Pide turno de caja',
  arqueo_ciego: 'Arqueo a ciegas',
  cerrar_turno: 'Cierra sus turnos',
  vender_sin_stock: 'Vende sin stock',
  ajuste_porcentaje: 'Recargo o descuento (%)',
  // Autorización con PIN (issue 33).
  autorizado_por_id: 'Autorizó',
  autorizado: 'Autorizado',
  autorizador_id: 'Autorizador',
  autorizacion: 'Autorización',
};

/** "precio_lista" → "Precio lista" for a field without its own label. */
export const fieldLabel = (key: string) =>
  FIELD_LABELS[key] ?? (key.charAt(0).toUpperCase() + key.slice(1)).replace(/_id$/, '').replace(/_/g, ' ');

const MONEY =
  /^(precio|monto|total|subtotal|descuento$|costo|fondo|limite|saldo|ajuste$|vuelto|ingresos|retiros|esperado|contado|diferencia|ganancia)/;
const PERCENT = /porcentaje|_maximo$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T/;

/** One value as a person reads it; `names` turns ids into what the records are called. */
export function showValue(key: string, v: unknown, f: Formatting, names: Record<string, string> = {}): string {
  if (v === null || v === undefined || v === '') return '—';
  if (typeof v === 'boolean') return v ? 'Sí' : 'No';
  if (typeof v === 'string') {
    if (key.endsWith('_id')) return names[v] ?? 'un registro que ya no existe';
    if (DATE.test(v)) return formatDate(v, f);
    if (DATE_TIME.test(v)) return formatDateTime(v, f);
    return v;
  }
  if (typeof v === 'number') {
    if (PERCENT.test(key)) return `${formatNumber(v, f, 2)} %`;
    return MONEY.test(key) ? formatMoney(v, f) : formatNumber(v, f, 3);
  }
  if (Array.isArray(v)) {
    if (v.length === 0) return '—';
    // Reasons, as the sale authorized with a PIN lists them.
    if (v.every((x) => typeof x === 'string')) return v.join(', ');
    const named = v.every((x) => x && typeof x === 'object' && 'nombre' in x);
    const n = v.length;
    return named
      ? v.map((x) => String((x as { nombre: unknown }).nombre)).join(', ')
      : `${formatNumber(n, f, 0)} ${n === 1 ? 'elemento' : 'elementos'}`;
  }
  if (typeof v === 'object') {
    const entries = Object.entries(v as Record<string, unknown>);
    if (entries.every(([, x]) => typeof x === 'boolean')) {
      const on = entries.filter(([, x]) => x).length;
      return `${on} de ${entries.length} activados`;
    }
    return entries.map(([k, x]) => `${fieldLabel(k)}: ${showValue(k, x, f, names)}`).join(' · ');
  }
  return String(v);
}
