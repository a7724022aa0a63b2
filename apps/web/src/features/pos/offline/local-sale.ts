import { MEDIO_TIPO_CODE, type MedioPago } from '@mostrador/shared/caja';
import type { Sale } from '@mostrador/shared/sales';
import { lineDiscount, lineSubtotal, type CartLine } from '../cart';

/**
 * The sale as the ticket shows it, made on the device for a sale still waiting to be sent:
 * numero 0 ("pendiente de sincronizar"); the server gives it its number when it syncs.
 */
export function localSale(o: {
  id: string;
  lines: CartLine[];
  /** Cents. */
  subtotal: number;
  descuento: number;
  total: number;
  pagos: { medio_pago_id: string; monto: number }[] | null;
  medios: MedioPago[];
  cliente: { id: string; nombre: string; apellido: string | null } | null;
  vendedor: { id: string; nombre: string } | null;
  observaciones: string | null;
  turnoId: string | null;
}): Sale {
  const now = new Date().toISOString();
  const pagos = (o.pagos ?? []).map((p) => {
    const m = o.medios.find((x) => x.id === p.medio_pago_id);
    const tipo = m?.tipo ?? 'efectivo';
    return {
      medio_pago_id: p.medio_pago_id,
      nombre: m?.nombre ?? 'Efectivo',
      tipo,
      metodo_pago: MEDIO_TIPO_CODE[tipo],
      monto: p.monto,
      ajuste: 0,
      total: o.pagos!.length === 1 ? o.total / 100 : p.monto,
      recibido: null,
      vuelto: 0,
    };
  });
  const items = o.lines.map((l) => ({
    id: l.key,
    tipo: l.item.tipo,
    producto_id: l.item.tipo === 'producto' ? l.item.id : null,
    servicio_id: l.item.tipo === 'servicio' ? l.item.id : null,
    nombre: l.item.nombre,
    cantidad: l.cantidad / 1000,
    precio_unitario: l.precio / 100,
    descuento: lineDiscount(l).cents / 100,
    subtotal: lineSubtotal(l) / 100,
    costo_unitario: 0,
    cantidad_devuelta: 0,
    monto_devuelto: 0,
  }));
  const metodo = pagos[0]?.metodo_pago ?? 'efectivo';
  return {
    id: o.id,
    numero: 0,
    fecha: now,
    fecha_venta: now,
    estado: 'completada',
    cliente_id: o.cliente?.id ?? null,
    cliente_nombre: o.cliente ? [o.cliente.nombre, o.cliente.apellido].filter(Boolean).join(' ') : null,
    metodo_pago: metodo,
    medio_pago: metodo,
    subtotal: o.subtotal / 100,
    descuento: o.descuento / 100,
    ajuste: (o.total - (o.subtotal - o.descuento)) / 100,
    total: o.total / 100,
    pagos,
    turno_id: o.turnoId,
    costo_estimado: 0,
    observaciones: o.observaciones,
    vendedor: o.vendedor,
    items,
    venta_detalle: items,
    anulada_en: null,
    anulada_por: null,
    motivo_anulacion: null,
    total_devuelto: 0,
  };
}
