import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Comprobante,
  ComprobanteList,
  CsrInput,
  CsrResult,
  EmitirInput,
  FacturacionConfig,
  FacturacionModo,
  FacturacionConfigInput,
  PadronPersona,
  ProbarResult,
} from '@mostrador/shared/facturacion';
import type { CaeaEstado } from '@mostrador/shared/caea';
import { useBusiness } from '@/app/business-context';
import { api, ApiError } from '@/lib/api';

/*
 * Facturación electrónica ARCA (issue 16): the routes of packages/shared/src/facturacion.ts.
 * Every comprobante change also touches the sales (their `comprobante`) and the dashboard count.
 */
export const facturacionKeys = {
  all: (b: string) => ['facturacion', b] as const,
  config: (b: string) => ['facturacion', b, 'config'] as const,
  modo: (b: string) => ['facturacion', b, 'modo'] as const,
  list: (b: string, f: ComprobanteFilters) => ['facturacion', b, 'list', f] as const,
  one: (b: string, id: string) => ['facturacion', b, 'comprobante', id] as const,
};

const base = (b: string) => `/businesses/${b}/facturacion`;

const noRetryOn4xx = (count: number, e: unknown) =>
  !(e instanceof ApiError && e.status >= 400 && e.status < 500) && count < 2;

/** GET facturacion/config (admins; a member gets 403 and the screens read it as unknown). */
export function useFacturacionConfig(enabled = true) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: facturacionKeys.config(b),
    queryFn: () => api.get<FacturacionConfig>(`${base(b)}/config`),
    enabled: Boolean(b) && enabled,
    staleTime: 5 * 60_000,
    retry: noRetryOn4xx,
  });
}

/** GET facturacion/modo: whether and how the POS invoices, for every member who sells. */
export function useFacturacionModo() {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: facturacionKeys.modo(b),
    queryFn: () => api.get<FacturacionModo>(`${base(b)}/modo`),
    enabled: Boolean(b),
    staleTime: 60_000,
    retry: noRetryOn4xx,
  });
}

export function useSaveFacturacionConfig() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: FacturacionConfigInput) => api.put<FacturacionConfig>(`${base(b)}/config`, body),
    onSuccess: (c) => {
      qc.setQueryData(facturacionKeys.config(b), c);
      void qc.invalidateQueries({ queryKey: facturacionKeys.modo(b) });
    },
  });
}

export function useGenerateCsr() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: CsrInput) => api.post<CsrResult>(`${base(b)}/csr`, body),
    onSuccess: () => void qc.invalidateQueries({ queryKey: facturacionKeys.config(b) }),
  });
}

export function useProbarConexion() {
  const b = useBusiness().businessId ?? '';
  return useMutation({ mutationFn: () => api.post<ProbarResult>(`${base(b)}/probar`) });
}

export interface ComprobanteFilters {
  estado?: string;
  tipo?: string;
  desde?: string;
  hasta?: string;
  q?: string;
  limit: number;
  offset: number;
}

export function useComprobantes(f: ComprobanteFilters) {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: facturacionKeys.list(b, f),
    queryFn: () =>
      api.get<ComprobanteList>(`${base(b)}/comprobantes`, {
        estado: f.estado,
        tipo: f.tipo,
        desde: f.desde,
        hasta: f.hasta,
        q: f.q?.trim(),
        limit: f.limit,
        offset: f.offset,
      }),
    enabled: Boolean(b),
    staleTime: 15_000,
    placeholderData: keepPreviousData,
    // Pendientes turn into autorizados or rechazados on their own: keep the list current.
    refetchInterval: (q) => (q.state.data?.comprobantes.some((c) => c.estado === 'pendiente') ? 5_000 : false),
  });
}

/** How often the POS and the sale's detail ask for a pendiente comprobante. */
export const POLL_MS = 2_000;

/** GET facturacion/comprobantes/{id}: polled while it is pendiente. */
export function useComprobante(id: string | null, opts: { poll?: boolean } = {}) {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useQuery({
    queryKey: facturacionKeys.one(b, id ?? ''),
    queryFn: async () => {
      const c = await api.get<Comprobante>(`${base(b)}/comprobantes/${id}`);
      if (c.estado !== 'pendiente') {
        // It settled: the sales and the dashboard read it too.
        void qc.invalidateQueries({ queryKey: ['sales', b] });
        void qc.invalidateQueries({ queryKey: ['dashboard', b] });
      }
      return c;
    },
    enabled: Boolean(b && id),
    staleTime: 10_000,
    refetchInterval: (q) => (opts.poll !== false && q.state.data?.estado === 'pendiente' ? POLL_MS : false),
  });
}

function useInvalidateComprobantes() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return (c?: Comprobante) => {
    if (c) qc.setQueryData(facturacionKeys.one(b, c.id), c);
    void qc.invalidateQueries({ queryKey: ['facturacion', b, 'list'] });
    void qc.invalidateQueries({ queryKey: ['sales', b] });
    void qc.invalidateQueries({ queryKey: ['dashboard', b] });
  };
}

/** POST facturacion/comprobantes: idempotent per sale (a second call answers the same one). */
export function useEmitir() {
  const b = useBusiness().businessId ?? '';
  const done = useInvalidateComprobantes();
  return useMutation({
    mutationFn: (body: EmitirInput) => api.post<Comprobante>(`${base(b)}/comprobantes`, body),
    onSuccess: (c) => done(c),
  });
}

export function useReintentar() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  const done = useInvalidateComprobantes();
  return useMutation({
    mutationFn: (id: string) => api.post<Comprobante>(`${base(b)}/comprobantes/${id}/reintentar`),
    onSuccess: (c) => {
      done(c);
      void qc.invalidateQueries({ queryKey: ['facturacion', b, 'caea'] });
    },
  });
}

/** GET facturacion/padron/{cuit}: the name, address and IVA condition ARCA has for a CUIT. */
export function usePadron() {
  const b = useBusiness().businessId ?? '';
  return useMutation({
    mutationFn: (cuit: string) =>
      api.get<PadronPersona>(`${base(b)}/padron/${encodeURIComponent(cuit.replace(/\D/g, ''))}`),
  });
}

export const libroIvaPath = (b: string) => `${base(b)}/libro-iva`;
/** The Libro IVA Digital's TXT files of ventas (ARCA's importer): comprobantes or alícuotas. */
export const libroIvaDigitalPath = (b: string, parte: 'comprobantes' | 'alicuotas') =>
  `${base(b)}/libro-iva-digital/${parte}`;

/** "0001-00000023" (number still unknown while pendiente: "0001-…"). */
export { numeroComprobante } from '@mostrador/shared/factura-layout';

/** GET facturacion/caea (admins): the CAEA contingency (decision 0047); polled while something waits. */
export function useCaea() {
  const b = useBusiness().businessId ?? '';
  return useQuery({
    queryKey: ['facturacion', b, 'caea'] as const,
    queryFn: () => api.get<CaeaEstado>(`${base(b)}/caea`),
    enabled: Boolean(b),
    staleTime: 15_000,
    retry: noRetryOn4xx,
    refetchInterval: (q) =>
      q.state.data?.por_informar.length || q.state.data?.wsfe_sin_respuesta_desde ? 10_000 : false,
  });
}

/** POST facturacion/caea/actualizar: asks the CAEAs due and reports what is pending, now. */
export function useActualizarCaea() {
  const b = useBusiness().businessId ?? '';
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<CaeaEstado>(`${base(b)}/caea/actualizar`),
    onSuccess: (e) => {
      qc.setQueryData(['facturacion', b, 'caea'], e);
      void qc.invalidateQueries({ queryKey: ['facturacion', b, 'list'] });
    },
  });
}
