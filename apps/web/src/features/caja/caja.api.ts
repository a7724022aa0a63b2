import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Caja,
  Cobro,
  CuentaCorriente,
  Deudor,
  MedioPago,
  MedioPagoInput,
  Turno,
  TurnoResumen,
} from '@mostrador/shared/caja';
import type { ChequeRecibidoInput } from '@mostrador/shared/cheques';
import type { ImpresoraEtiquetasInput, ImpresoraInput } from '@mostrador/shared/impresion';
import { useBusiness } from '@/app/business-context';
import { api, request } from '@/lib/api';
import { session } from '@/lib/session';

/** Medios de pago, cajas and turnos of the selected business (issue 14). */
const useBiz = () => useBusiness().businessId ?? '';

export function useMedios() {
  const b = useBiz();
  return useQuery({
    queryKey: ['caja', b, 'medios'],
    queryFn: () => api.get<MedioPago[]>(`/businesses/${b}/medios-pago`),
    enabled: Boolean(b),
    staleTime: 60_000,
  });
}

export function useCajas(enabled = true) {
  const b = useBiz();
  return useQuery({
    queryKey: ['caja', b, 'cajas'],
    queryFn: () => api.get<Caja[]>(`/businesses/${b}/cajas`),
    enabled: Boolean(b) && enabled,
  });
}

export interface TurnoFilters {
  estado?: string;
  caja_id?: string;
  desde?: string;
  hasta?: string;
  limit: number;
  offset: number;
}

export function useTurnos(f: TurnoFilters) {
  const b = useBiz();
  return useQuery({
    queryKey: ['caja', b, 'turnos', f],
    queryFn: ({ signal }) => api.page<TurnoResumen>(`/businesses/${b}/turnos`, { ...f }, signal),
    enabled: Boolean(b),
  });
}

export function useTurno(id: string | null) {
  const b = useBiz();
  return useQuery({
    queryKey: ['caja', b, 'turno', id],
    queryFn: () => api.get<Turno>(`/businesses/${b}/turnos/${id}`),
    enabled: Boolean(b && id),
  });
}

function useCajaMutation<V, R>(fn: (b: string, v: V) => Promise<R>) {
  const b = useBiz();
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (v: V) => fn(b, v),
    onSuccess: () => qc.invalidateQueries({ queryKey: ['caja', b] }),
  });
}

export const useOpenTurno = () =>
  useCajaMutation((b, v: { cajaId: string; fondo_inicial: number }) =>
    api.post<Turno>(`/businesses/${b}/cajas/${v.cajaId}/turnos`, { fondo_inicial: v.fondo_inicial }),
  );

export const useTurnoMove = () =>
  useCajaMutation((b, v: { turnoId: string; tipo: 'ingreso' | 'retiro'; monto: number; motivo: string }) =>
    api.post<{ id: string; turno: Turno }>(`/businesses/${b}/turnos/${v.turnoId}/movimientos`, {
      tipo: v.tipo,
      monto: v.monto,
      motivo: v.motivo,
    }),
  );

export const useCloseTurno = () =>
  useCajaMutation(
    (b, v: { turnoId: string; contado: { medio_pago_id: string; monto: number }[]; observaciones: string | null }) =>
      api.post<Turno>(`/businesses/${b}/turnos/${v.turnoId}/cerrar`, {
        contado: v.contado,
        observaciones: v.observaciones,
      }),
  );

/** Creates a caja, or renames one and sets its ARCA punto de venta (null: the setup's default). */
export const useSaveCaja = () =>
  useCajaMutation(
    (
      b,
      v: {
        id?: string;
        nombre: string;
        punto_venta: number | null;
        impresora?: ImpresoraInput;
        impresora_etiquetas?: ImpresoraEtiquetasInput;
        /** Its sucursal (null: the principal); left out, it stays as it is. */
        sucursal_id?: string | null;
      },
    ) => {
      const body = {
        nombre: v.nombre,
        punto_venta: v.punto_venta,
        impresora: v.impresora,
        impresora_etiquetas: v.impresora_etiquetas,
        ...(v.sucursal_id !== undefined ? { sucursal_id: v.sucursal_id } : {}),
      };
      return v.id
        ? api.patch<Caja>(`/businesses/${b}/cajas/${v.id}`, body)
        : api.post<Caja>(`/businesses/${b}/cajas`, body);
    },
  );

export const useSaveMedio = () =>
  useCajaMutation((b, v: { id?: string; body: Partial<MedioPagoInput> }) =>
    v.id
      ? api.put<MedioPago>(`/businesses/${b}/medios-pago/${v.id}`, v.body)
      : api.post<MedioPago>(`/businesses/${b}/medios-pago`, v.body),
  );

export const useDeleteMedio = () =>
  useCajaMutation((b, id: string) =>
    request<{ desactivado: boolean; mensaje: string }>(`/businesses/${b}/medios-pago/${id}`, { method: 'DELETE' }).then(
      (r) => r.data,
    ),
  );

/**
 * The turno the counter sells in: among the open turnos, the one this user opened, else the
 * first (as the server picks it when the sale names none).
 */
export function useCurrentTurno(enabled = true) {
  const cajas = useCajas(enabled);
  const me = session.user()?.id;
  const open = (cajas.data ?? []).flatMap((c) => (c.turno_abierto ? [c.turno_abierto] : []));
  const turno = open.find((t) => t.abierto_por?.id === me) ?? open[0] ?? null;
  const caja = (cajas.data ?? []).find((c) => c.activa) ?? null;
  return { turno, caja, isPending: cajas.isPending };
}

export function useCuenta(clienteId: string | null, enabled = true) {
  const b = useBiz();
  return useQuery({
    queryKey: ['caja', b, 'cuenta', clienteId],
    queryFn: () => api.get<CuentaCorriente>(`/businesses/${b}/clientes/${clienteId}/cuenta-corriente`),
    enabled: Boolean(b && clienteId) && enabled,
  });
}

export const useCobro = () =>
  useCajaMutation(
    (
      b,
      v: {
        clienteId: string;
        monto: number;
        medio_pago_id: string;
        observaciones: string | null;
        /** Paid with a cheque: it goes to the cartera (issue 37). */
        cheque?: ChequeRecibidoInput;
      },
    ) =>
      api.post<Cobro>(`/businesses/${b}/clientes/${v.clienteId}/cobros`, {
        monto: v.monto,
        medio_pago_id: v.medio_pago_id,
        observaciones: v.observaciones,
        ...(v.cheque ? { cheque: v.cheque } : {}),
      }),
  );

export function useDeudores(enabled: boolean) {
  const b = useBiz();
  return useQuery({
    queryKey: ['caja', b, 'deudores'],
    queryFn: () => api.get<Deudor[]>(`/businesses/${b}/cuentas-corrientes`),
    enabled: Boolean(b) && enabled,
  });
}
