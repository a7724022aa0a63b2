import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Product, Service } from '@mostrador/shared/catalog';
import type { Customer } from '@mostrador/shared/customers';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';
import type { ProductConListas } from '@mostrador/shared';
import { itemListas } from '../precios/pos-lista';
import { rankCatalog, type CatalogItem } from './cart';
import { isNetworkError, offlineStore, recordCustomer, searchLocal, searchLocalCustomers } from './offline/offline-pos';

const cents = (n: number) => Math.round(n * 100);
const milli = (n: number) => Math.round(n * 1000);

export const productToItem = (p: Product): CatalogItem => ({
  id: p.id,
  tipo: 'producto',
  nombre: p.nombre,
  codigo: p.codigo,
  codigo_barras: p.codigo_barras,
  precio: cents(p.precio_venta),
  stock: p.controla_stock === false ? null : milli(p.stock_actual),
  unidad: p.unidad,
  listas: itemListas((p as ProductConListas).precios_listas),
});

export const serviceToItem = (s: Service): CatalogItem => ({
  id: s.id,
  tipo: 'servicio',
  nombre: s.nombre,
  codigo: null,
  codigo_barras: null,
  precio: cents(s.precio),
  stock: null,
  unidad: 'servicio',
});

/** Active products and services whose name or code contains `q`, best match first (see rankCatalog). */
export async function searchCatalog(businessId: string, q: string, limit = 8, signal?: AbortSignal) {
  // Without a connection, the catalogue kept on the device answers (issue 18).
  const local = offlineStore.get();
  if (!local.online && local.catalogo) return searchLocal(q, limit);
  try {
    return await searchServer(businessId, q, limit, signal);
  } catch (e) {
    if (isNetworkError(e) && offlineStore.get().catalogo) return searchLocal(q, limit);
    throw e;
  }
}

async function searchServer(businessId: string, q: string, limit: number, signal?: AbortSignal) {
  // A phone keyboard's ” is the inch mark the catalogue writes as ".
  const query = { q: q.replace(/[\u201c\u201d\u2033]/g, '"'), activo: 'true', limit };
  const [products, services] = await Promise.all([
    // The products the search ranks first (decision 0050), so the best is within the page.
    api.get<Product[]>(`/businesses/${businessId}/products`, { ...query, orden: 'relevancia' }),
    api.get<Service[]>(`/businesses/${businessId}/services`, query),
  ]);
  if (signal?.aborted) return [];
  return rankCatalog([...products.map(productToItem), ...services.map(serviceToItem)], q);
}

/** `allowed`: the user may see products; otherwise nothing is asked (the server would refuse it). */
export function useCatalogSearch(q: string, allowed = true) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  const term = q.trim();
  return useQuery({
    queryKey: ['inventory', b, 'pos-search', term],
    queryFn: ({ signal }) => searchCatalog(b, term, 8, signal),
    enabled: Boolean(b && term) && allowed,
    // Offline the catalogue on the device answers.
    networkMode: 'always',
    staleTime: 15_000,
    placeholderData: keepPreviousData,
  });
}

export function useCustomerSearch(q: string, enabled: boolean) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: ['customers', b, 'pos', q.trim()],
    queryFn: async () => {
      const local = () => searchLocalCustomers(q, 8) as unknown as Customer[];
      if (!offlineStore.get().online && offlineStore.get().catalogo) return local();
      try {
        return await api.get<Customer[]>(`/businesses/${b}/clientes`, { q: q.trim() || undefined, limit: 8 });
      } catch (e) {
        if (isNetworkError(e) && offlineStore.get().catalogo) return local();
        throw e;
      }
    },
    enabled: Boolean(b) && enabled,
    networkMode: 'always',
    staleTime: 30_000,
    placeholderData: keepPreviousData,
  });
}

export function useCreateCustomer() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    // Offline too: the customer goes to the device's queue (issue 18).
    networkMode: 'always',
    mutationFn: (body: {
      nombre: string;
      apellido: string | null;
      documento_tipo: string | null;
      documento_numero: string | null;
      telefono: string | null;
    }) =>
      // Through the offline queue, with an id made here: sales naming it are sent after it.
      recordCustomer(
        {
          email: null,
          condicion_iva: 'consumidor_final',
          limite_credito: null,
          ...body,
        },
        `Cliente ${[body.nombre, body.apellido].filter(Boolean).join(' ')}`,
      ) as unknown as Promise<Customer>,
    onSuccess: () => qc.invalidateQueries({ queryKey: ['customers', businessId] }),
  });
}
