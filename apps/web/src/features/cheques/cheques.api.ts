import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  ChequeAccion,
  ChequeDetalle,
  ChequeEstado,
  ChequeInput,
  ChequeList,
  ChequeTipo,
} from '@mostrador/shared/cheques';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';
import { useDownload } from '@/lib/download';

/** The cartera of cheques and the business's own cheques (issue 37). */
const useBiz = () => useBusiness().businessId ?? '';
const path = (b: string) => `/businesses/${b}/cheques`;

export interface ChequeFilters {
  tipo: ChequeTipo;
  estado: ChequeEstado | '';
}

export const chequeKeys = {
  all: (b: string) => ['cheques', b] as const,
  list: (b: string, f: ChequeFilters) => ['cheques', b, 'list', f] as const,
};

export function useCheques(f: ChequeFilters) {
  const b = useBiz();
  return useQuery({
    queryKey: chequeKeys.list(b, f),
    queryFn: () => api.get<ChequeList>(path(b), { tipo: f.tipo, estado: f.estado || undefined, limit: 500 }),
    enabled: Boolean(b),
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}

/** After a change: the cheques, and the money it moved (finance, customers' and suppliers' accounts). */
function useInvalidate() {
  const qc = useQueryClient();
  const b = useBiz();
  return () =>
    Promise.all([
      qc.invalidateQueries({ queryKey: chequeKeys.all(b) }),
      qc.invalidateQueries({ queryKey: ['finance', b] }),
      qc.invalidateQueries({ queryKey: ['caja', b] }),
      qc.invalidateQueries({ queryKey: ['suppliers', b] }),
    ]);
}

export interface AccionBody {
  fecha?: string;
  proveedor_id?: string;
  gastos_bancarios?: number;
  motivo?: string;
}

export function useChequeAccion() {
  const b = useBiz();
  const done = useInvalidate();
  return useMutation({
    mutationFn: ({ id, accion, body }: { id: string; accion: ChequeAccion; body: AccionBody }) =>
      api.post<ChequeDetalle>(`${path(b)}/${id}/${accion}`, body),
    onSuccess: done,
  });
}

export function useCreateCheque() {
  const b = useBiz();
  const done = useInvalidate();
  return useMutation({
    mutationFn: (body: ChequeInput) => api.post<ChequeDetalle>(path(b), body),
    onSuccess: done,
  });
}

export function useChequesExport() {
  const b = useBiz();
  const exporter = useDownload('No se pudo exportar la lista de cheques.');
  const run = (f: ChequeFilters) =>
    exporter.run(`${path(b)}/exportar`, { tipo: f.tipo, estado: f.estado || undefined });
  return { ...exporter, run };
}

/** The cheques a sale's payments brought that are still in the cartera (a return may give one back). */
export function useChequesEnCarteraDeVenta(ventaId: string, enabled: boolean) {
  const b = useBiz();
  return useQuery({
    queryKey: [...chequeKeys.all(b), 'venta', ventaId] as const,
    queryFn: () => api.get<ChequeList>(path(b), { venta_id: ventaId, estado: 'en_cartera' }),
    enabled: Boolean(b) && enabled,
  });
}
