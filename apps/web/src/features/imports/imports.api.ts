import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  FieldError,
  ImportConfirmResult,
  ImportSheetsResult,
  ImportSummary,
  ImportUploadResult,
  StagedRow,
} from '@mostrador/shared';
import type { ImportColumn, ImportEmptyStock } from '@mostrador/shared';
import { useBusiness } from '@/app/business-context';
import { api, API_BASE, ApiError, request, REQUEST_TIMEOUT_MS } from '@/lib/api';
import { useDownload } from '@/lib/download';
import { session } from '@/lib/session';

const base = (b: string) => `/businesses/${b}/import`;

export type StagedSummary = ImportSummary & {
  columnas: ImportColumn[];
  columnas_ignoradas: string[];
  columnas_originales: string[];
};

/** A refused upload, with the whole answer (a missing-columns error carries the headers read). */
export class UploadError extends ApiError {
  constructor(
    status: number,
    code: string,
    detail: unknown,
    errors: FieldError[],
    public readonly body: Record<string, unknown>,
  ) {
    super(status, code, detail, errors);
  }
}

/**
 * A multipart upload with progress (fetch cannot report upload progress): the same headers,
 * timeout, error shape and 401 handling as lib/api.
 */
export function uploadWithProgress<T>(
  path: string,
  file: File,
  fields: Record<string, string | undefined>,
  onProgress: (fraction: number) => void,
): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open('POST', `${API_BASE}${path}`);
    const token = session.token();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.timeout = REQUEST_TIMEOUT_MS * 5;
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      let body: { detail?: unknown; code?: string; errors?: FieldError[] } | undefined;
      try {
        body = xhr.responseText ? JSON.parse(xhr.responseText) : undefined;
      } catch {
        body = undefined;
      }
      if (xhr.status === 401) {
        session.clear();
        window.location.assign('/login');
      }
      if (xhr.status >= 200 && xhr.status < 300) resolve(body as T);
      else {
        console.error('Error de la API', xhr.status, path, body);
        reject(
          new UploadError(
            xhr.status,
            body?.code ?? 'ERROR',
            body?.detail ?? 'Ocurrió un error inesperado.',
            body?.errors ?? [],
            (body ?? {}) as Record<string, unknown>,
          ),
        );
      }
    };
    xhr.onerror = () => reject(new ApiError(0, 'NETWORK', 'No se pudo conectar con el servidor. Revisá tu conexión.'));
    xhr.ontimeout = () =>
      reject(new ApiError(0, 'TIMEOUT', 'El servidor tardó demasiado en responder. Intentá nuevamente.'));
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) if (v !== undefined) form.append(k, v);
    form.append('file', file, file.name);
    xhr.send(form);
  });
}

export const importKeys = {
  all: (b: string) => ['inventory', b, 'import'] as const,
  summary: (b: string) => ['inventory', b, 'import', 'summary'] as const,
  rows: (b: string, estado: string, page: number) => ['inventory', b, 'import', 'rows', estado, page] as const,
};

/** The refused rows with their errors, as an .xlsx (GET /import/errores). */
export function useErrorsDownload() {
  const { businessId } = useBusiness();
  const download = useDownload('No se pudieron descargar las filas con errores.');
  return { ...download, run: () => download.run(`${base(businessId ?? '')}/errores`) };
}

export function useImportApi() {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return {
    sheets: (file: File, onProgress: (f: number) => void) =>
      uploadWithProgress<ImportSheetsResult>(`${base(b)}/hojas-excel`, file, {}, onProgress),
    upload: (
      file: File,
      hoja: string | undefined,
      mapeo: Record<string, string | null> | undefined,
      onProgress: (f: number) => void,
    ) =>
      uploadWithProgress<ImportUploadResult>(
        `${base(b)}/upload`,
        file,
        { hoja, mapeo: mapeo ? JSON.stringify(mapeo) : undefined },
        onProgress,
      ),
  };
}

export function useImportSummary(enabled: boolean) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: importKeys.summary(b),
    queryFn: () => api.get<StagedSummary>(`${base(b)}/resumen`),
    enabled: Boolean(b) && enabled,
    staleTime: 0,
  });
}

export const STAGED_PAGE = 50;

export function useStagedRows(estado: '' | 'validos' | 'con_errores', page: number, enabled: boolean) {
  const { businessId } = useBusiness();
  const b = businessId ?? '';
  return useQuery({
    queryKey: importKeys.rows(b, estado, page),
    queryFn: () =>
      api.page<StagedRow>(`${base(b)}/productos-temporales`, {
        estado: estado || undefined,
        limit: STAGED_PAGE,
        offset: page * STAGED_PAGE,
      }),
    enabled: Boolean(b) && enabled,
    placeholderData: keepPreviousData,
  });
}

export function useUpdateStagedRow() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, datos }: { id: string; datos: Record<string, unknown> }) =>
      api.put<StagedRow>(`${base(businessId!)}/productos-temporales/${id}`, { datos }),
    onSuccess: () => qc.invalidateQueries({ queryKey: importKeys.all(businessId!) }),
  });
}

export function useConfirmImport() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (body: {
      crear_categorias_nuevas: boolean;
      sobrescribir_existentes: boolean;
      stock_vacio: ImportEmptyStock;
    }) => api.post<ImportConfirmResult>(`${base(businessId!)}/confirmar`, body),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['inventory', businessId] }),
  });
}

export function useCancelImport() {
  const { businessId } = useBusiness();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: () =>
      request<{ message: string; filas_descartadas: number }>(`${base(businessId!)}/cancelar`, { method: 'DELETE' }),
    onSuccess: () => qc.invalidateQueries({ queryKey: importKeys.all(businessId!) }),
  });
}
