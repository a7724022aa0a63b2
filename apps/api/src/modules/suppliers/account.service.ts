import { sql } from 'drizzle-orm';
import { centsToNumber, SUPPLIER_MESSAGES, type SupplierAccount, type SupplierMoveType } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { notFound } from '../../lib/errors.js';
import { rows } from '../caja/rows.js';
import { toCents } from '../products/common.js';

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
  const [s] = await rows(
    ex,
    sql`SELECT s.id, s.nombre,
               (SELECT coalesce(sum(a.monto - a.monto_pagado), 0) FROM finance_accounts a
                 WHERE a.business_id = s.business_id AND a.proveedor_id = s.id AND a.tipo = 'por_pagar')::text AS saldo
          FROM suppliers s WHERE s.business_id = ${businessId} AND s.id = ${proveedorId}`,
  );
  if (!s) throw notFound(SUPPLIER_MESSAGES.notFound);
  const lines = await rows(
    ex,
    sql`SELECT 'deuda' AS tipo, a.fecha_emision::text AS fecha, a.creado_en AS orden, a.descripcion, a.id AS cuenta_id,
               a.compra_id, NULL::uuid AS movimiento_id, a.monto::text AS monto
          FROM finance_accounts a
         WHERE a.business_id = ${businessId} AND a.proveedor_id = ${proveedorId} AND a.tipo = 'por_pagar'
        UNION ALL
        SELECT 'pago', m.fecha::text, m.creado_en, coalesce(m.descripcion, ''), a.id, a.compra_id, m.id, m.monto::text
          FROM finance_movements m
          JOIN finance_accounts a ON a.business_id = m.business_id AND a.id = m.cuenta_id
         WHERE m.business_id = ${businessId} AND a.proveedor_id = ${proveedorId} AND a.tipo = 'por_pagar'
           AND NOT m.anulado
         ORDER BY fecha, orden, tipo`,
  );
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
