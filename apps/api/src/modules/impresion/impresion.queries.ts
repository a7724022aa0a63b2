import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.js';

/*
 * Printing's own reads (decision 0044: the business first, the executor last). The documents
 * themselves come from their modules' services (a sale, a comprobante, a cobro…).
 */

/** The shop as its printed documents name it: name and CUIT, fiscal address and IVA condition. */
export async function negocioImpreso(businessId: string, ex: Executor) {
  const { rows } = await ex.execute(
    sql`SELECT b.nombre, coalesce(fc.cuit, b.cuit) AS cuit, fc.domicilio_fiscal, fc.condicion_iva
          FROM businesses b LEFT JOIN facturacion_config fc ON fc.business_id = b.id
         WHERE b.id = ${businessId}`,
  );
  return rows[0] as
    { nombre: string; cuit: string | null; domicilio_fiscal: string | null; condicion_iva: string | null } | undefined;
}

/** The caja of a sale's turno, or null (a sale without turno). */
export async function cajaDeVenta(businessId: string, ventaId: string, ex: Executor) {
  const { rows } = await ex.execute(
    sql`SELECT t.caja_id FROM sales s JOIN turnos t ON t.business_id = s.business_id AND t.id = s.turno_id
         WHERE s.business_id = ${businessId} AND s.id = ${ventaId}`,
  );
  return ((rows[0]?.caja_id as string | undefined) ?? null) as string | null;
}

/** A customer's name and phone (the wa.me link of a shared document), or undefined. */
export async function contactoCliente(businessId: string, clienteId: string, ex: Executor) {
  const { rows } = await ex.execute(
    sql`SELECT concat_ws(' ', nombre, apellido) AS nombre, telefono, email FROM customers
         WHERE business_id = ${businessId} AND id = ${clienteId}`,
  );
  return rows[0] as { nombre: string; telefono: string | null; email: string | null } | undefined;
}

/** How the business writes money and dates (a shared document, opened without a session). */
export async function formatoNegocio(businessId: string, ex: Executor) {
  const { rows } = await ex.execute(
    sql`SELECT b.nombre, coalesce(t.timezone, 'America/Argentina/Buenos_Aires') AS timezone,
               coalesce(t.locale, 'es-AR') AS locale, coalesce(t.currency, 'ARS') AS currency
          FROM businesses b LEFT JOIN tenant_settings t ON t.business_id = b.id
         WHERE b.id = ${businessId}`,
  );
  return rows[0] as { nombre: string; timezone: string; locale: string; currency: string } | undefined;
}
