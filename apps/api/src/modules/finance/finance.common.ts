import { FINANCE_MESSAGES, type MovementType } from '@mostrador/shared';
import type { Executor } from '../../db/client.js';
import { invalid } from '../../lib/errors.js';
import { safeCents } from '../../lib/money.js';
import { shareCustomer, shareFinanceCategory, shareSupplierName } from './finance.queries.js';

/** A numeric string from PostgreSQL ("1234.50") as integer cents (422 beyond what a number carries exactly). */
export const toCents = (v: string | number | null | undefined): number => safeCents(v);

/** 422 unless the customer belongs to the business (a foreign id answers the same as a missing one). */
export async function assertCustomer(ex: Executor, businessId: string, clienteId: string, field = 'cliente_id') {
  if (!(await shareCustomer(businessId, clienteId, ex))) throw invalid(field, FINANCE_MESSAGES.customerNotInBusiness);
}

/**
 * The category of a movement: of the business, of the movement's type and, when it is being
 * chosen now, active. Locked FOR SHARE so a concurrent type change waits for this transaction.
 */
export async function assertCategory(
  ex: Executor,
  businessId: string,
  categoriaId: string,
  tipo: MovementType,
  opts: { mustBeActive: boolean; field?: string },
) {
  const field = opts.field ?? 'categoria_id';
  const cat = await shareFinanceCategory(businessId, categoriaId, ex);
  if (!cat) throw invalid(field, FINANCE_MESSAGES.categoryNotInBusiness);
  if (cat.tipo !== tipo) throw invalid(field, FINANCE_MESSAGES.categoryTypeMismatch);
  if (opts.mustBeActive && !cat.activo) throw invalid(field, FINANCE_MESSAGES.categoryInactive);
}

/**
 * The name of a supplier of the business, for a payable's `proveedor_nombre`; 422 when the id
 * names no supplier of the business. Locked FOR SHARE so it is not deleted meanwhile.
 */
export async function supplierName(ex: Executor, businessId: string, proveedorId: string): Promise<string> {
  const nombre = await shareSupplierName(businessId, proveedorId, ex);
  if (nombre === undefined) throw invalid('proveedor_id', FINANCE_MESSAGES.supplierNotInBusiness);
  return nombre;
}

/** The fields of a PUT body that were given (zod may keep absent optional keys as undefined). */
export function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}
