import type { SQL } from 'drizzle-orm';
import {
  LISTA_MESSAGES,
  listaDeVenta,
  precioDeLista,
  type ListaRegla,
  type PrecioFijoRegla,
  type RecordSaleOutput,
} from '@mostrador/shared';
import type { Row } from '../../db/pipeline.js';
import { AppError, invalid } from '../../lib/errors.js';
import { toCents, toMilli } from '../products/common.js';
import { listaFixedPricesSql, listasSql } from './record-sale.queries.js';
import type { SaleContext } from './sales.service.js';

/*
 * Price lists in record-sale (issue 17, decision 0017): the server, not the client, decides a
 * line's list price. The lists and the lines' fixed prices are read in record-sale's first round
 * trip, beside the products; the customer's default list comes with the customer's row.
 */

/** (product id, quantity in thousandths, its own price in cents) → the unit price of the sale's list. */
export type ListPrice = (productId: string, cantidad: number, precioBase: number) => number;

/** The reads a sale needs for its list: none unless a list is asked for or a customer may have one. */
export function listaReads(c: SaleContext, input: RecordSaleOutput, productIds: string[]): [string, SQL][] {
  const asked = input.lista_precios_id !== undefined && input.lista_precios_id !== null;
  if (!asked && !input.cliente_id) return [];
  const out: [string, SQL][] = [['listas', listasSql(c.businessId)]];
  if (productIds.length) out.push(['listas_fijos', listaFixedPricesSql(c.businessId, productIds)]);
  return out;
}

/**
 * The sale's list price function, or null for Minorista. Refuses (403, before anything is
 * written) a list other than the customer's default from a member without cambiar_precios, and
 * (422) an unknown or inactive list asked for by id.
 */
export function listaPricer(c: SaleContext, input: RecordSaleOutput, read: Map<string, Row[]>): ListPrice | null {
  const cliente = read.get('cliente')?.[0];
  const delCliente = (cliente?.lista_precios_id as string | null | undefined) ?? null;
  const { lista, override } = listaDeVenta(input.lista_precios_id, delCliente);
  if (override && c.precios && !c.precios.cambiar) {
    throw new AppError(403, 'PRICE_CHANGE_FORBIDDEN', LISTA_MESSAGES.changeForbidden, { field: 'lista_precios_id' });
  }
  if (lista === null) return null;
  const listas = new Map<string, ListaRegla>(
    (read.get('listas') ?? []).map((r) => [
      r.id as string,
      {
        id: r.id as string,
        tipo: r.tipo as ListaRegla['tipo'],
        baseListaId: r.base_lista_id as string | null,
        porcentaje: r.porcentaje === null ? null : toCents(r.porcentaje as string),
        cantidadMinima: r.cantidad_minima === null ? null : toMilli(r.cantidad_minima as string),
        activo: r.activo as boolean,
      },
    ]),
  );
  if (input.lista_precios_id && !listas.get(input.lista_precios_id)?.activo) {
    throw invalid('lista_precios_id', LISTA_MESSAGES.notFound);
  }
  const fijos = new Map<string, PrecioFijoRegla>(
    (read.get('listas_fijos') ?? []).map((r) => [
      `${r.lista_id as string}:${r.producto_id as string}`,
      {
        precio: toCents(r.precio as string),
        cantidadMinima: r.cantidad_minima === null ? null : toMilli(r.cantidad_minima as string),
      },
    ]),
  );
  return (productId, cantidad, precioBase) =>
    precioDeLista({ precioBase, listaId: lista, cantidad, listas, fijo: (id) => fijos.get(`${id}:${productId}`) });
}
