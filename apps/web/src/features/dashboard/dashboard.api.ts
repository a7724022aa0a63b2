import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export type Periodo = 'dia' | 'semana' | 'mes';

export interface DashboardStats {
  negocio_id: string;
  periodo: Periodo;
  ventas_mes: number;
  facturas_emitidas: number;
  productos_activos: number;
  clientes_registrados: number;
  top_productos: { id: string; tipo: string; nombre: string; cantidad_total: number; precio_venta: number }[];
  ventas_recientes: { id: string; numero: number; fecha: string; total: number }[];
}

export function useDashboardStats(businessId: string | null, periodo: Periodo, enabled: boolean) {
  return useQuery({
    queryKey: ['dashboard', businessId, periodo],
    queryFn: () => api.get<DashboardStats>('/ventas/dashboard-stats-v2', { negocio_id: businessId, periodo }),
    enabled: Boolean(businessId) && enabled,
    staleTime: 60_000,
    placeholderData: keepPreviousData,
  });
}
