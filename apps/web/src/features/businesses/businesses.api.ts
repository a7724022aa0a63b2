import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Business, BusinessInput } from '@mostrador/shared';
import { api } from '@/lib/api';

export const businessKeys = { all: ['businesses'] as const };

export function useBusinesses(enabled = true) {
  return useQuery({ queryKey: businessKeys.all, queryFn: () => api.get<Business[]>('/businesses/'), enabled });
}

export function useCreateBusiness() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (input: BusinessInput) =>
      api.post<{ message: string; business_id: string; business: Business }>('/businesses/', input),
    onSuccess: () => qc.invalidateQueries({ queryKey: businessKeys.all }),
  });
}

export function useDeleteBusiness() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => api.delete(`/businesses/${id}`),
    onSuccess: () => qc.invalidateQueries({ queryKey: businessKeys.all }),
  });
}
