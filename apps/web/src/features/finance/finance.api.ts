import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Account,
  AccountType,
  CashFlow,
  FinanceCategory,
  FinanceSummary,
  MarkPaidResult,
  Movement,
  MovementType,
} from '@mostrador/shared';
import { FINANCE_PENDING_ACCOUNTS } from '@mostrador/shared';
import type { Deudor } from '@mostrador/shared/caja';
import { useBusiness } from '@/app/business-context';
import { api } from '@/lib/api';
import { useDownload } from '@/lib/download';

/** SPEC §9: how long each finance read stays fresh. */
export const FINANCE_STALE = {
  summary: 5 * 60_000,
  movements: 2 * 60_000,
  categories: 10 * 60_000,
  accounts: 3 * 60_000,
  cashFlow: 5 * 60_000,
} as const;

/** Query keys per business; a mutation invalidates a whole group by its prefix. */
export const financeKeys = {
  all: (b: string) => ['finance', b] as const,
  summary: (b: string) => ['finance', b, 'summary'] as const,
  movements: (b: string) => ['finance', b, 'movements'] as const,
  movementList: (b: string, f: MovementFilters) => ['finance', b, 'movements', f] as const,
  categories: (b: string) => ['finance', b, 'categories'] as const,
  accounts: (b: string) => ['finance', b, 'accounts'] as const,
  accountList: (b: string, tipo: AccountType, f: AccountFilters) => ['finance', b, 'accounts', tipo, f] as const,
  pendingTop: (b: string) => ['finance', b, 'accounts', 'pending-top'] as const,
  customerBalances: (b: string) => ['finance', b, 'accounts', 'customers'] as const,
  cashFlow: (b: string) => ['finance', b, 'cash-flow'] as const,
  cashFlowMonth: (b: string, mes: number, anio: number) => ['finance', b, 'cash-flow', mes, anio] as const,
};

const base = (b: string) => `/businesses/${b}/finanzas`;

function useBusinessId(): string {
  const { businessId } = useBusiness();
  return businessId ?? '';
}

/** Downloads the movements matching the filters as .xlsx (all pages). */
export function useMovementsExport() {
  const b = useBusinessId();
  const exporter = useDownload('No se pudo exportar la lista.');
  const run = (filters: MovementFilters) => exporter.run(`${base(b)}/movimientos/exportar`, { ...filters });
  return { ...exporter, run };
}

/** Downloads the month's cash flow as .xlsx (a row per day, dates and amounts as such). */
export function useCashFlowExport() {
  const b = useBusinessId();
  const exporter = useDownload('No se pudo exportar el flujo de caja.');
  const run = (mes: number, anio: number) => exporter.run(`${base(b)}/flujo-caja/exportar`, { mes, anio });
  return { ...exporter, run };
}

/* ---------------------------------------------------------------- reads */

export function useFinanceSummary() {
  const b = useBusinessId();
  return useQuery({
    queryKey: financeKeys.summary(b),
    queryFn: () => api.get<FinanceSummary>(`${base(b)}/resumen`),
    enabled: Boolean(b),
    staleTime: FINANCE_STALE.summary,
  });
}

export interface MovementFilters {
  tipo?: MovementType | '';
  categoria_id?: string;
  fecha_desde?: string;
  fecha_hasta?: string;
  limit?: number;
  offset?: number;
}

export function useMovements(filters: MovementFilters) {
  const b = useBusinessId();
  return useQuery({
    queryKey: financeKeys.movementList(b, filters),
    queryFn: () => api.page<Movement>(`${base(b)}/movimientos`, { ...filters }),
    enabled: Boolean(b),
    staleTime: FINANCE_STALE.movements,
    placeholderData: keepPreviousData,
  });
}

export function useFinanceCategories() {
  const b = useBusinessId();
  return useQuery({
    queryKey: financeKeys.categories(b),
    queryFn: () => api.get<FinanceCategory[]>(`${base(b)}/categorias`),
    enabled: Boolean(b),
    staleTime: FINANCE_STALE.categories,
  });
}

export interface AccountFilters {
  estado?: '' | 'pendiente' | 'pagado' | 'vencido';
  fecha_desde?: string;
  fecha_hasta?: string;
}

const ACCOUNT_PATH: Record<AccountType, string> = { por_cobrar: 'cuentas-cobrar', por_pagar: 'cuentas-pagar' };

export function useAccounts(tipo: AccountType, filters: AccountFilters) {
  const b = useBusinessId();
  return useQuery({
    queryKey: financeKeys.accountList(b, tipo, filters),
    queryFn: () => api.page<Account>(`${base(b)}/${ACCOUNT_PATH[tipo]}`, { ...filters, limit: 500 }),
    enabled: Boolean(b),
    staleTime: FINANCE_STALE.accounts,
    placeholderData: keepPreviousData,
  });
}

/**
 * The customers who owe on account (GET finanzas/cuentas-corrientes): receivables too, listed in
 * the Por cobrar tab; their sum is the summary's cuentas_corrientes_clientes (decision 0045).
 */
export function useCustomerBalances() {
  const b = useBusinessId();
  return useQuery({
    queryKey: financeKeys.customerBalances(b),
    queryFn: () => api.get<Deudor[]>(`${base(b)}/cuentas-corrientes`),
    enabled: Boolean(b),
    staleTime: FINANCE_STALE.accounts,
  });
}

/** The unpaid accounts due first (overdue included), receivable and payable together. */
export function usePendingAccountsTop() {
  const b = useBusinessId();
  return useQuery({
    queryKey: financeKeys.pendingTop(b),
    queryFn: async () => {
      const n = FINANCE_PENDING_ACCOUNTS;
      const lists = await Promise.all(
        (['cuentas-cobrar', 'cuentas-pagar'] as const).flatMap((path) =>
          (['vencido', 'pendiente'] as const).map((estado) =>
            api.get<Account[]>(`${base(b)}/${path}`, { estado, limit: n }),
          ),
        ),
      );
      return lists
        .flat()
        .sort(
          (x, y) => x.fecha_vencimiento.localeCompare(y.fecha_vencimiento) || x.creado_en.localeCompare(y.creado_en),
        )
        .slice(0, n);
    },
    enabled: Boolean(b),
    staleTime: FINANCE_STALE.accounts,
  });
}

export function useCashFlow(mes: number, anio: number) {
  const b = useBusinessId();
  return useQuery({
    queryKey: financeKeys.cashFlowMonth(b, mes, anio),
    queryFn: () => api.get<CashFlow>(`${base(b)}/flujo-caja`, { mes, anio }),
    enabled: Boolean(b),
    staleTime: FINANCE_STALE.cashFlow,
    placeholderData: keepPreviousData,
  });
}

export interface CustomerOption {
  id: string;
  nombre: string;
  apellido: string | null;
}

/**
 * Customers for the selects (SPEC §7: limit 100). The customers module may not be there yet:
 * any failure leaves the select empty instead of breaking the form.
 */
export function useCustomerOptions(enabled = true) {
  const b = useBusinessId();
  return useQuery({
    queryKey: ['customers', b, 'options'],
    queryFn: async () => {
      try {
        const data = await api.get<CustomerOption[] | { clientes?: CustomerOption[] }>(`/businesses/${b}/clientes`, {
          limit: 100,
        });
        return Array.isArray(data) ? data : (data.clientes ?? []);
      } catch (e) {
        console.error('No se pudieron cargar los clientes', e);
        return [];
      }
    },
    enabled: Boolean(b) && enabled,
    staleTime: 5 * 60_000,
  });
}

export const customerLabel = (c: CustomerOption) => [c.nombre, c.apellido].filter(Boolean).join(' ');

/* ---------------------------------------------------------------- writes */

function useInvalidate() {
  const qc = useQueryClient();
  const b = useBusinessId();
  return (...groups: ('summary' | 'movements' | 'categories' | 'accounts' | 'cashFlow')[]) =>
    Promise.all(groups.map((g) => qc.invalidateQueries({ queryKey: financeKeys[g](b) })));
}

/** What the movement form sends (SPEC §5: monto as a number; empty category and client as null). */
export interface MovementBody {
  tipo: MovementType;
  categoria_id: string | null;
  monto: number;
  fecha: string;
  metodo_pago: string;
  descripcion: string | null;
  observaciones: string | null;
  cliente_id: string | null;
}

export function useSaveMovement() {
  const b = useBusinessId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: MovementBody }) =>
      id ? api.put<Movement>(`${base(b)}/movimientos/${id}`, body) : api.post<Movement>(`${base(b)}/movimientos`, body),
    onSuccess: () => invalidate('movements', 'summary', 'cashFlow'),
  });
}

export function useDeleteMovement() {
  const b = useBusinessId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(b)}/movimientos/${id}`),
    onSuccess: () => invalidate('movements', 'summary', 'cashFlow'),
  });
}

export interface CategoryBody {
  nombre?: string;
  descripcion: string | null;
  tipo?: MovementType;
  activo?: boolean;
}

export function useSaveCategory() {
  const b = useBusinessId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: CategoryBody }) =>
      id
        ? api.put<FinanceCategory>(`${base(b)}/categorias/${id}`, body)
        : api.post<FinanceCategory>(`${base(b)}/categorias`, body),
    // Movements show the category's name.
    onSuccess: () => invalidate('categories', 'movements'),
  });
}

export function useDeleteCategory() {
  const b = useBusinessId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(b)}/categorias/${id}`),
    onSuccess: () => invalidate('categories'),
  });
}

export interface AccountBody {
  tipo?: AccountType;
  cliente_id?: string | null;
  proveedor_id?: string | null;
  proveedor_nombre?: string | null;
  monto?: number;
  fecha_emision?: string;
  fecha_vencimiento?: string;
  descripcion: string;
  observaciones: string | null;
}

export function useSaveAccount() {
  const b = useBusinessId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({ id, body }: { id?: string; body: AccountBody }) =>
      id ? api.put<Account>(`${base(b)}/cuentas/${id}`, body) : api.post<Account>(`${base(b)}/cuentas`, body),
    onSuccess: () => invalidate('accounts', 'summary'),
  });
}

export function useDeleteAccount() {
  const b = useBusinessId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: (id: string) => api.delete(`${base(b)}/cuentas/${id}`),
    onSuccess: () => invalidate('accounts', 'summary'),
  });
}

export function useMarkPaid() {
  const b = useBusinessId();
  const invalidate = useInvalidate();
  return useMutation({
    mutationFn: ({
      id,
      ...body
    }: {
      id: string;
      fecha_pago: string;
      metodo_pago: string;
      /** The movement's category (of its tipo); null for none. */
      categoria_id: string | null;
      /** A part of what is left; absent: all of it. */
      monto?: number;
    }) => api.put<MarkPaidResult>(`${base(b)}/cuentas/${id}/marcar-pagado`, body),
    // The payment is a movement: every finance view changes.
    onSuccess: () => invalidate('accounts', 'movements', 'summary', 'cashFlow'),
  });
}
