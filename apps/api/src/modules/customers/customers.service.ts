import {
  POS_MESSAGES,
  LISTA_MESSAGES,
  centsToNumber,
  CUSTOMER_MESSAGES,
  normalizeDocument,
  type Customer,
  type CustomerListQuery,
  type CustomerOutput,
  type CustomerUpdate,
  type DocumentType,
} from '@mostrador/shared';
import type { Db, Executor } from '../../db/client.js';
import { audit, diff } from '../../lib/audit.js';
import { AppError, conflict, invalid, isUniqueViolation, notFound } from '../../lib/errors.js';
import { defined, isFkViolation } from '../products/common.js';
import { pgConstraint } from '../precios/precios.service.js';
import {
  customerIdTaken,
  customerInUse,
  deleteCustomerRow,
  findCustomerRow,
  insertCustomer,
  listCustomerRows,
  lockCustomer,
  updateCustomerRow,
  type CustomerColumns,
  type CustomerRow as Row,
} from './customers.queries.js';

export function toCustomer(r: Row): Customer {
  return {
    id: r.id,
    nombre: r.nombre,
    apellido: r.apellido,
    email: r.email,
    telefono: r.telefono,
    direccion: r.direccion,
    documento_tipo: r.documentoTipo,
    documento_numero: r.documentoNumero,
    condicion_iva: r.condicionIva,
    notas: r.notas,
    limite_credito: r.limiteCredito === null ? null : Number(r.limiteCredito),
    lista_precios_id: r.listaPreciosId,
    creado_en: r.creadoEn.toISOString(),
    actualizado_en: r.actualizadoEn.toISOString(),
  };
}

const snapshot = (c: Customer) => ({
  nombre: c.nombre,
  apellido: c.apellido,
  email: c.email,
  telefono: c.telefono,
  direccion: c.direccion,
  documento_tipo: c.documento_tipo,
  documento_numero: c.documento_numero,
  condicion_iva: c.condicion_iva,
  notas: c.notas,
  limite_credito: c.limite_credito,
  lista_precios_id: c.lista_precios_id ?? null,
});
type Snapshot = ReturnType<typeof snapshot>;

/** The credit limit comes in cents from the schema; the snapshot (and the answer) speak pesos. */
function inPesos<T extends { limite_credito?: number | null }>(i: T): T {
  return i.limite_credito === undefined || i.limite_credito === null
    ? i
    : { ...i, limite_credito: centsToNumber(i.limite_credito) };
}

export async function listCustomers(db: Db, businessId: string, q: CustomerListQuery) {
  const { rows, total } = await listCustomerRows(businessId, q, db);
  return { rows: rows.map(toCustomer), total };
}

export async function getCustomer(ex: Executor, businessId: string, id: string): Promise<Customer> {
  const r = await findCustomerRow(businessId, id, ex);
  if (!r) throw notFound(CUSTOMER_MESSAGES.notFound);
  return toCustomer(r);
}

const duplicate = () => conflict('DUPLICATE', CUSTOMER_MESSAGES.duplicate);

/**
 * What the member may set on a customer beyond clientes · editar (decision 0005): the credit
 * limit needs exceder_credito, the price list cambiar_precios (creator, admin and full access both).
 */
export interface CustomerControls {
  credito: boolean;
  precios: boolean;
}
const ALL_CONTROLS: CustomerControls = { credito: true, precios: true };

/** 403 when the values set or changed (`given`) touch what the member may not set. */
function checkControls(given: Partial<Snapshot>, may: CustomerControls) {
  if (given.limite_credito !== undefined && !may.credito) {
    throw new AppError(403, 'FORBIDDEN', CUSTOMER_MESSAGES.creditLimitForbidden, { field: 'limite_credito' });
  }
  if (given.lista_precios_id !== undefined && !may.precios) {
    throw new AppError(403, 'FORBIDDEN', CUSTOMER_MESSAGES.priceListForbidden, { field: 'lista_precios_id' });
  }
}

function columns(s: Partial<Snapshot>): CustomerColumns {
  return {
    nombre: s.nombre,
    apellido: s.apellido,
    email: s.email,
    telefono: s.telefono,
    direccion: s.direccion,
    documentoTipo: s.documento_tipo,
    documentoNumero: s.documento_numero,
    condicionIva: s.condicion_iva,
    notas: s.notas,
    limiteCredito:
      s.limite_credito === undefined ? undefined : s.limite_credito === null ? null : String(s.limite_credito),
    listaPreciosId: s.lista_precios_id,
  };
}

export async function createCustomer(
  db: Db,
  businessId: string,
  userId: string,
  input: CustomerOutput,
  may: CustomerControls = ALL_CONTROLS,
) {
  const values: Snapshot = {
    nombre: input.nombre,
    apellido: input.apellido ?? null,
    email: input.email ?? null,
    telefono: input.telefono ?? null,
    direccion: input.direccion ?? null,
    documento_tipo: input.documento_tipo ?? null,
    documento_numero: input.documento_numero ?? null,
    condicion_iva: input.condicion_iva ?? 'consumidor_final',
    notas: input.notas ?? null,
    limite_credito: inPesos(input).limite_credito ?? null,
    lista_precios_id: input.lista_precios_id ?? null,
  };
  // A new customer starts without limit and at the Minorista list: setting either is a change.
  checkControls(
    {
      ...(values.limite_credito !== null ? { limite_credito: values.limite_credito } : {}),
      ...(values.lista_precios_id !== null ? { lista_precios_id: values.lista_precios_id } : {}),
    },
    may,
  );
  // An id made on the device (offline POS): sending it again returns the customer it created; an
  // id another business uses is refused (decision 0036). cliente_id_tomado locks the id for the
  // transaction, so two requests with one id wait for each other and the second sees the first.
  const taken = () => new AppError(409, 'DUPLICATE', POS_MESSAGES.customerIdTaken, { field: 'id' });
  try {
    return await db.transaction(async (tx) => {
      if (input.id) {
        if (await customerIdTaken(businessId, input.id, tx)) throw taken();
        const mine = await findCustomerRow(businessId, input.id, tx);
        if (mine) return toCustomer(mine);
      }
      const row = await insertCustomer(businessId, input.id, columns(values), tx);
      const c = toCustomer(row);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'cliente',
        entidadId: c.id,
        accion: 'crear',
        despues: snapshot(c),
      });
      return c;
    });
  } catch (e) {
    if (isUniqueViolation(e, 'customers_pkey')) throw taken();
    if (isUniqueViolation(e, 'customers_document_key')) throw duplicate();
    if (isFkViolation(e) && pgConstraint(e) === 'customers_lista_precios_fk') {
      throw invalid('lista_precios_id', LISTA_MESSAGES.notFound);
    }
    throw e;
  }
}

/**
 * A PUT: the given fields change; the document pair is checked as a whole (a number needs a
 * type; a new type revalidates the stored number) and stored normalised.
 */
export async function updateCustomer(
  db: Db,
  businessId: string,
  userId: string,
  id: string,
  patch: CustomerUpdate,
  may: CustomerControls = ALL_CONTROLS,
) {
  try {
    return await db.transaction(async (tx) => {
      const before = await lockCustomer(businessId, id, tx);
      if (!before) throw notFound(CUSTOMER_MESSAGES.notFound);
      const old = toCustomer(before);
      const given = defined(inPesos(patch)) as Partial<Snapshot>;
      if (given.condicion_iva === null) given.condicion_iva = 'consumidor_final';
      const tipo = (
        given.documento_tipo !== undefined ? given.documento_tipo : old.documento_tipo
      ) as DocumentType | null;
      const numero = given.documento_numero !== undefined ? given.documento_numero : old.documento_numero;
      if ('documento_tipo' in given || 'documento_numero' in given) {
        if (numero && !tipo) throw invalid('documento_tipo', CUSTOMER_MESSAGES.documentTypeRequired);
        if (numero && tipo) {
          const n = normalizeDocument(tipo, numero);
          if (!n.ok) throw invalid('documento_numero', n.message);
          given.documento_numero = n.value;
        }
      }
      const changes = diff(snapshot(old), given);
      // Only a change is refused: the form sends the limit and list back as they were.
      checkControls(changes.despues as Partial<Snapshot>, may);
      if (!changes.changed) return old;
      const row = await updateCustomerRow(businessId, id, columns(changes.despues as Partial<Snapshot>), tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'cliente',
        entidadId: id,
        accion: 'actualizar',
        antes: changes.antes,
        despues: changes.despues,
      });
      return toCustomer(row);
    });
  } catch (e) {
    if (isUniqueViolation(e, 'customers_document_key')) throw duplicate();
    if (isFkViolation(e) && pgConstraint(e) === 'customers_lista_precios_fk') {
      throw invalid('lista_precios_id', LISTA_MESSAGES.notFound);
    }
    throw e;
  }
}

const inUse = () => conflict('IN_USE', CUSTOMER_MESSAGES.inUse);

/**
 * Refused while anything references the customer: movements, accounts and subscriptions are
 * checked here; any later table (sales) is caught by its foreign key.
 */
export async function deleteCustomer(db: Db, businessId: string, userId: string, id: string) {
  try {
    await db.transaction(async (tx) => {
      const before = await lockCustomer(businessId, id, tx);
      if (!before) throw notFound(CUSTOMER_MESSAGES.notFound);
      if (await customerInUse(businessId, id, tx)) throw inUse();
      await deleteCustomerRow(businessId, id, tx);
      await audit(tx, {
        businessId,
        userId,
        entidad: 'cliente',
        entidadId: id,
        accion: 'eliminar',
        antes: snapshot(toCustomer(before)),
      });
    });
  } catch (e) {
    if (e instanceof AppError) throw e;
    if (isFkViolation(e)) throw inUse();
    throw e;
  }
}
