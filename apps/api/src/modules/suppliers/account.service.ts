import { centsToNumber, SUPPLIER_MESSAGES, type SupplierAccount, type SupplierMoveType } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { toCents } from '../products/common.js';
import { supplierAccountHead, supplierAccountLines } from './suppliers.queries.js';

/**
 * A supplier's account (issue 14): its payables (debe) and every payment of them, whole or in
 * parts (haber), oldest first with the running balance. The balance is the pending part of the
 * payables, which the last running balance always equals.
 */
export async function getSupplierAccount(
  ex: Executor,
  businessId: string,
  proveedorId: string,
): Promise<SupplierAccount> {
  const s = await supplierAccountHead(businessId, proveedorId, ex);
  if (!s) throw notFound(SUPPLIER_MESSAGES.notFound);
  const lines = await supplierAccountLines(businessId, proveedorId, ex);
  let saldo = 0;
  const movimientos = lines.map((l) => {
    const monto = toCents(l.monto as string);
    const deuda = l.tipo === 'deuda';
    saldo += deuda ? monto : -monto;
    return {
      tipo: l.tipo as SupplierMoveType,
      fecha: l.fecha as string,
      descripcion: l.descripcion as string,
      cuenta_id: l.cuenta_id as string,
      compra_id: (l.compra_id as string | null) ?? null,
      movimiento_id: (l.movimiento_id as string | null) ?? null,
      debe: deuda ? centsToNumber(monto) : 0,
      haber: deuda ? 0 : centsToNumber(monto),
      saldo: centsToNumber(saldo),
    };
  });
  return {
    proveedor_id: s.id as string,
    proveedor_nombre: s.nombre as string,
    saldo: centsToNumber(toCents(s.saldo as string)),
    movimientos,
  };
}
