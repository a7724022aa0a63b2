import { sql, type SQL } from 'drizzle-orm';
import {
  centsToDecimal,
  MEDIO_TIPO_CODE,
  milliToDecimal,
  type MedioTipo,
  type PaymentMethod,
  type SaleItemType,
} from '@mostrador/shared';
import { saldoOf } from '../caja/cuenta.js';
import { auditRowsSql } from '../posting/audit.js';
import { movementsAuditSql, movementsInsertSql } from '../posting/finance.js';
import { depositoStockUpsertSql, stockMovementsInsertSql } from '../posting/stock.js';

/*
 * record-sale's statements (decision 0044), as builders that return SQL: every one takes the
 * business first, and record-sale.ts sends them in its two round trips (decision 0004). The reads
 * of the first go out together; the write of the second is one statement, `WITH` the common table
 * expressions below in order (each names the ones before it: `n`, `s`, `st`, `fm`), then
 * `SELECT s.id, s.numero FROM s`.
 */

const uuids = (ids: string[]) => `{${ids.join(',')}}`;

/* ---------------------------------------------------------------- the Idempotency-Key */

/**
 * The claim of a key: a concurrent request with the same key waits here, on the unique key, until
 * the one holding it commits or rolls back. Returns the key's row when this request took it.
 */
export function claimKeySql(businessId: string, userId: string, clave: string, hash: string | null, now: Date): SQL {
  return sql`INSERT INTO sale_idempotency_keys (business_id, user_id, clave, hash, status, respuesta, creado_en)
          VALUES (${businessId}, ${userId}, ${clave}, ${hash}, 0, '{}', ${now.toISOString()}::timestamptz)
          ON CONFLICT DO NOTHING RETURNING clave`;
}

/** A key another request held, locked, with the invoice request of its sale (a replay can still invoice). */
export function heldKeySql(businessId: string, userId: string, clave: string): SQL {
  return sql`SELECT k.hash, k.status, k.respuesta, k.creado_en, s.facturar
          FROM sale_idempotency_keys k
          LEFT JOIN sales s ON s.business_id = k.business_id AND s.id = k.venta_id
         WHERE k.business_id = ${businessId} AND k.user_id = ${userId} AND k.clave = ${clave} FOR UPDATE OF k`;
}

/** The key taken over (its answer expired, or its sale was never written). */
export function takeOverKeySql(businessId: string, userId: string, clave: string, hash: string, now: Date): SQL {
  return sql`INSERT INTO sale_idempotency_keys (business_id, user_id, clave, hash, status, respuesta, creado_en)
        VALUES (${businessId}, ${userId}, ${clave}, ${hash}, 0, '{}', ${now.toISOString()}::timestamptz)
        ON CONFLICT (business_id, user_id, clave) DO UPDATE
          SET hash = excluded.hash, status = 0, respuesta = '{}', venta_id = NULL, creado_en = excluded.creado_en`;
}

/**
 * Expired keys cleared (created before `before`), now and then instead of by a scheduler. It names
 * no business: row-level security keeps it to the selling business's keys.
 */
export function expiredKeysSql(before: Date): SQL {
  return sql`DELETE FROM sale_idempotency_keys
             WHERE creado_en < ${before.toISOString()}::timestamptz`;
}

/* ---------------------------------------------------------------- the first round trip's reads */

/**
 * The sale's products locked in ascending id order (no deadlocks between concurrent sales), with
 * their stock, which cannot change until commit, and whether the business sells without stock.
 */
export function lockProductsSql(businessId: string, productIds: string[]): SQL {
  return sql`SELECT id, nombre, precio_venta AS precio, precio_compra AS costo, activo, stock_actual AS stock,
                 controla_stock AS controla, iva,
                 coalesce((SELECT vender_sin_stock FROM tenant_settings WHERE business_id = ${businessId}), false)
                   AS sin_stock
            FROM products WHERE business_id = ${businessId} AND id = ANY(${uuids(productIds)}::uuid[])
           ORDER BY id FOR UPDATE OF products`;
}

/** The business's price lists (lista-venta.ts). */
export function listasSql(businessId: string): SQL {
  return sql`SELECT id, tipo, base_lista_id, porcentaje::text AS porcentaje, cantidad_minima::text AS cantidad_minima, activo
            FROM listas_precios WHERE business_id = ${businessId}`;
}

/** The fixed prices of the sale's products in the business's lists (lista-venta.ts). */
export function listaFixedPricesSql(businessId: string, productIds: string[]): SQL {
  return sql`SELECT lista_id, producto_id, precio::text AS precio, cantidad_minima::text AS cantidad_minima
            FROM listas_precios_items
           WHERE business_id = ${businessId} AND producto_id = ANY(${uuids(productIds)}::uuid[])`;
}

export function servicesSql(businessId: string, serviceIds: string[]): SQL {
  return sql`SELECT id, nombre, precio, costo, activo, iva FROM services
           WHERE business_id = ${businessId} AND id = ANY(${uuids(serviceIds)}::uuid[])`;
}

/**
 * The customer with their credit limit and price list, locked: for update when a part of the sale
 * may go on their account (its balance and limit hold until commit, as a cobro locks it), else
 * for share.
 */
export function customerSql(businessId: string, clienteId: string, forUpdate: boolean): SQL {
  return sql`SELECT c.id, concat_ws(' ', c.nombre, c.apellido) AS nombre, c.limite_credito, c.lista_precios_id
            FROM customers c WHERE c.business_id = ${businessId} AND c.id = ${clienteId}
          ${forUpdate ? sql`FOR UPDATE` : sql`FOR SHARE`}`;
}

/** What the customer owes: its own statement, after the lock, so it sees what a concurrent sale or cobro committed. */
export function customerSaldoSql(businessId: string, clienteId: string): SQL {
  return sql`SELECT ${saldoOf(sql`c`)}::text AS saldo FROM customers c
             WHERE c.business_id = ${businessId} AND c.id = ${clienteId}`;
}

export function paymentMethodsSql(businessId: string): SQL {
  return sql`SELECT id, nombre, tipo, ajuste_porcentaje::float8 AS ajuste, activo FROM payment_methods
         WHERE business_id = ${businessId} ORDER BY orden, nombre`;
}

/**
 * The depósito a turno's caja sells from (decision 0059): the first of its sucursal (the principal
 * sucursal's when the caja names none), as a LATERAL join on turnos `t` giving deposito_id and
 * deposito_principal.
 */
const turnoDeposito = sql`LEFT JOIN LATERAL (
      SELECT d.id AS deposito_id, d.principal AS deposito_principal
        FROM cajas c JOIN depositos d ON d.business_id = c.business_id
         AND d.sucursal_id = coalesce(c.sucursal_id,
               (SELECT su.id FROM sucursales su WHERE su.business_id = c.business_id AND su.principal))
       WHERE c.business_id = t.business_id AND c.id = t.caja_id
       ORDER BY d.principal DESC, d.creado_en, d.id LIMIT 1) dep ON true`;

/** The turno named, held (FOR SHARE) so that it cannot close under the sale, with its depósito. */
export function turnoSql(businessId: string, turnoId: string): SQL {
  return sql`SELECT t.id, t.estado, t.abierto_por, dep.deposito_id, dep.deposito_principal FROM turnos t ${turnoDeposito}
              WHERE t.business_id = ${businessId} AND t.id = ${turnoId} FOR SHARE OF t`;
}

/** The open turnos, newest first, held (FOR SHARE) so that they cannot close under the sale, with their depósitos. */
export function openTurnosSql(businessId: string): SQL {
  return sql`SELECT t.id, t.estado, t.abierto_por, dep.deposito_id, dep.deposito_principal FROM turnos t ${turnoDeposito}
              WHERE t.business_id = ${businessId} AND t.estado = 'abierto'
             ORDER BY t.abierto_en DESC LIMIT 50 FOR SHARE OF t`;
}

/**
 * The stock the sale's products have in depósitos other than the principal: its own statement
 * after the products' lock, so it sees every change committed before (a stock change locks the
 * product first). A business with one depósito has none.
 */
export function depositoStockSql(businessId: string, productIds: string[]): SQL {
  return sql`SELECT deposito_id, producto_id, stock::text AS stock FROM stock_depositos
              WHERE business_id = ${businessId} AND producto_id = ANY(${uuids(productIds)}::uuid[])`;
}

/** Whether the business invoices its sales and is ready to (decision 0013). */
export function invoicingSql(businessId: string): SQL {
  return sql`SELECT facturar, certificado_pem IS NOT NULL AND clave_cifrada IS NOT NULL AS lista
          FROM facturacion_config WHERE business_id = ${businessId}`;
}

/** The business's system income category "Ventas". */
export function salesCategorySql(businessId: string): SQL {
  return sql`SELECT id FROM finance_categories
           WHERE business_id = ${businessId} AND sistema AND tipo = 'ingreso' AND lower(nombre) = 'ventas' LIMIT 1`;
}

/* ---------------------------------------------------------------- the write's common table expressions */

/** A line as the sale stores it: money in cents, the quantity in thousandths. */
export interface StoredLine {
  posicion: number;
  tipo: SaleItemType;
  id: string;
  nombre: string;
  cantidad: number;
  precio: number;
  /** The catalogue price (precio differs when changed at the counter). */
  precioLista: number;
  descuento: number;
  subtotal: number;
  costoUnitario: number;
  costoTotal: number;
  iva: string;
}

/** The sale's row as it is stored (money in cents). */
export interface StoredSale {
  vendedorId: string;
  fecha: Date;
  clienteId: string | null;
  metodoPago: PaymentMethod;
  subtotal: number;
  descuento: number;
  ajuste: number;
  total: number;
  costo: number;
  observaciones: string | null;
  autorizadoPor: string | null;
  turnoId: string | null;
  /** Invoice it: the marker the reconcile sweep finds if the after-step never runs. */
  facturar: boolean;
  /** The invoice's receptor, kept as JSON (null when the sale is not invoiced). */
  receptor: object | null;
}

/**
 * `n`: the sale's number from the business's counter (its row lock is held until commit, so
 * numbers never skip); `s`: the sale; `i`: its lines.
 */
export function numberedSaleCtes(businessId: string, s: StoredSale, lines: StoredLine[]): SQL {
  const items = lines.map(
    (l) => sql`(${l.posicion}::int, ${l.tipo}, ${l.tipo === 'producto' ? l.id : null}::uuid,
      ${l.tipo === 'servicio' ? l.id : null}::uuid, ${l.nombre}, ${milliToDecimal(l.cantidad)}::numeric,
      ${centsToDecimal(l.precio)}::numeric, ${centsToDecimal(l.precioLista)}::numeric, ${centsToDecimal(l.descuento)}::numeric,
      ${centsToDecimal(l.subtotal)}::numeric,
      ${centsToDecimal(l.costoUnitario)}::numeric, ${centsToDecimal(l.costoTotal)}::numeric, ${l.iva})`,
  );
  return sql`n AS (
      INSERT INTO sale_counters AS sc (business_id, ultimo_numero) VALUES (${businessId}, 1)
      ON CONFLICT (business_id) DO UPDATE SET ultimo_numero = sc.ultimo_numero + 1
      RETURNING ultimo_numero AS numero
    ), s AS (
      INSERT INTO sales (business_id, numero, fecha, cliente_id, metodo_pago, subtotal, descuento, ajuste, total,
                         costo_estimado, observaciones, vendedor_id, autorizado_por, turno_id, facturar, facturar_receptor,
                         conciliar)
      SELECT ${businessId}, n.numero, ${s.fecha.toISOString()}::timestamptz, ${s.clienteId}::uuid,
             ${s.metodoPago}, ${centsToDecimal(s.subtotal)}::numeric, ${centsToDecimal(s.descuento)}::numeric,
             ${centsToDecimal(s.ajuste)}::numeric, ${centsToDecimal(s.total)}::numeric, ${centsToDecimal(s.costo)}::numeric,
             ${s.observaciones}, ${s.vendedorId},
             ${s.autorizadoPor}::uuid, ${s.turnoId}::uuid, ${s.facturar},
             ${s.receptor ? JSON.stringify(s.receptor) : null}::jsonb, ${s.facturar}
        FROM n
      RETURNING id, numero, fecha
    ), i AS (
      INSERT INTO sale_items (business_id, venta_id, fecha, posicion, tipo, producto_id, servicio_id, nombre, cantidad,
                              precio_unitario, precio_lista, descuento, subtotal, costo_unitario, costo_total, iva)
      SELECT ${businessId}, s.id, s.fecha, v.*
        FROM s, (VALUES ${sql.join(items, sql`, `)}) AS v
    )`;
}

/** A part of the sale's payment (money in cents; `recibido` null when none is kept). */
export interface StoredPayment {
  medio: { id: string | null; nombre: string; tipo: MedioTipo };
  monto: number;
  ajuste: number;
  total: number;
  recibido: number | null;
  vuelto: number;
  /** The Mercado Pago order that paid this part (decision 0052). */
  mercadopagoOrdenId: string | null;
}

/** `sp`: the sale's payments, in order. */
export function salePaymentsCte(businessId: string, parts: StoredPayment[]): SQL {
  return sql`sp AS (
      INSERT INTO sale_payments (business_id, venta_id, posicion, medio_pago_id, metodo_pago, tipo, nombre, monto, ajuste,
                                 total, recibido, vuelto, mercadopago_orden_id)
      SELECT ${businessId}, s.id, v.*
        FROM s, (VALUES ${sql.join(
          parts.map(
            (
              p,
              i,
            ) => sql`(${i}::int, ${p.medio.id}::uuid, ${MEDIO_TIPO_CODE[p.medio.tipo]}, ${p.medio.tipo}, ${p.medio.nombre},
              ${centsToDecimal(p.monto)}::numeric, ${centsToDecimal(p.ajuste)}::numeric, ${centsToDecimal(p.total)}::numeric,
              ${p.recibido === null ? null : centsToDecimal(p.recibido)}::numeric,
              ${centsToDecimal(p.vuelto)}::numeric, ${p.mercadopagoOrdenId}::uuid)`,
          ),
          sql`, `,
        )}) AS v
    )`;
}

/** The depósito a sale takes its stock from: null id for the principal (found in the statement). */
export interface SaleDeposito {
  id: string | null;
  principal: boolean;
}

/**
 * `st`: the products' stock decremented ([product id, thousandths] in ascending id order; below 0
 * only when the business sells without stock, checked before); `sdep`: the depósito's, when it is
 * not the principal (whose stock is the total's); `sm`: their stock movements (the posting
 * module's builder), naming the depósito.
 */
export function stockTakenCtes(
  businessId: string,
  userId: string,
  changes: [string, number][],
  deposito: SaleDeposito,
): SQL {
  const values = sql`(VALUES ${sql.join(
    changes.map(([id, q]) => sql`(${id}::uuid, ${milliToDecimal(q)}::numeric)`),
    sql`, `,
  )}) AS v (producto_id, cantidad)`;
  const other = !deposito.principal && deposito.id ? deposito.id : null;
  return sql`st AS (
        UPDATE products p SET stock_actual = p.stock_actual - v.cantidad, actualizado_en = now()
          FROM ${values}
         WHERE p.business_id = ${businessId} AND p.id = v.producto_id
        RETURNING p.id, p.stock_actual, v.cantidad
      ), ${
        other
          ? sql`sdep AS (${depositoStockUpsertSql(
              businessId,
              { id: other, principal: false },
              sql`FROM (SELECT v.producto_id, -v.cantidad AS cantidad FROM ${values}) AS x`,
            )}), `
          : sql``
      }sm AS (${stockMovementsInsertSql(
        businessId,
        userId,
        {
          productoId: sql`st.id`,
          origen: sql`'venta'`,
          cantidad: sql`-st.cantidad`,
          stockResultante: sql`st.stock_actual`,
          motivo: sql`'Venta #' || s.numero`,
          referenciaId: sql`s.id`,
          ...(other ? { depositoId: sql`${other}::uuid` } : {}),
        },
        sql`FROM st, s ORDER BY st.id`,
      )})`;
}

/** The income of the sale: its parts paid (not on account), by their position among the payments. */
export interface StoredIncome {
  categoriaId: string | null;
  /** The business's calendar day of the sale. */
  fecha: string;
  clienteId: string | null;
  paid: { posicion: number; total: number; medio: { id: string | null; tipo: MedioTipo } }[];
}

/**
 * `fm`: one income movement per part paid, in "Ventas", on the sale's day; `fa`: each one's audit
 * row (both the posting module's builders, as it writes every movement).
 */
export function incomeCtes(businessId: string, userId: string, m: StoredIncome): SQL {
  return sql`fm AS (${movementsInsertSql(
    businessId,
    userId,
    {
      tipo: sql`'ingreso'`,
      categoriaId: sql`${m.categoriaId}::uuid`,
      monto: sql`v.monto`,
      fecha: sql`${m.fecha}::date`,
      metodoPago: sql`v.metodo`,
      medioPagoId: sql`v.medio`,
      descripcion: sql`'Venta #' || s.numero`,
      observaciones: sql`NULL`,
      clienteId: sql`${m.clienteId}::uuid`,
      origen: sql`'venta'`,
      cuentaId: sql`NULL::uuid`,
      ventaId: sql`s.id`,
      compraId: sql`NULL::uuid`,
      cobroId: sql`NULL::uuid`,
      devolucionId: sql`NULL::uuid`,
    },
    sql`FROM s, (VALUES ${sql.join(
      m.paid.map(
        (p) =>
          sql`(${p.posicion}::int, ${centsToDecimal(p.total)}::numeric, ${MEDIO_TIPO_CODE[p.medio.tipo]}, ${p.medio.id}::uuid)`,
      ),
      sql`, `,
    )}) AS v (posicion, monto, metodo, medio)
         ORDER BY v.posicion`,
  )}), fa AS (${movementsAuditSql(businessId, userId, 'fm')})`;
}

/** `av`: the sale's audit row, its number and what `despues` says (the posting module's builder). */
export function saleAuditCte(businessId: string, userId: string, despues: Record<string, unknown>): SQL {
  return sql`av AS (${auditRowsSql(businessId, userId, {
    entidad: 'venta',
    accion: 'crear',
    entidadId: sql`s.id`,
    despues: sql`jsonb_build_object('numero', s.numero) || ${JSON.stringify(despues)}::jsonb`,
    from: sql`FROM s`,
  })}
    )`;
}

/** `k`: the key's answer, the sale's id and number with `body`, written with the sale. */
export function keyAnswerCte(businessId: string, userId: string, clave: string, body: object): SQL {
  return sql`k AS (
      UPDATE sale_idempotency_keys k SET status = 201, venta_id = s.id,
             respuesta = jsonb_build_object('id', s.id, 'numero', s.numero) || ${JSON.stringify(body)}::jsonb
        FROM s
       WHERE k.business_id = ${businessId} AND k.user_id = ${userId} AND k.clave = ${clave}
    )`;
}
