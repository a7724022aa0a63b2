import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type {
  Invitation,
  InvitationCreated,
  Member,
  MemberRole,
  PendingUser,
  PermissionPayload,
} from '@mostrador/shared';
import { api } from '@/lib/api';

/** Query keys of a business's team; every change refreshes the team, its notifications and the plan's user count. */
export const teamKeys = {
  all: (b: string) => ['team', b] as const,
  members: (b: string) => ['team', b, 'members'] as const,
  pending: (b: string) => ['team', b, 'pending'] as const,
  invitations: (b: string) => ['team', b, 'invitations'] as const,
};

const base = (b: string) => `/businesses/${b}`;

export function useMembers(b: string) {
  return useQuery({ queryKey: teamKeys.members(b), queryFn: () => api.get<Member[]>(`${base(b)}/usuarios`) });
}

export function usePendingUsers(b: string) {
  return useQuery({
    queryKey: teamKeys.pending(b),
    queryFn: () => api.get<PendingUser[]>(`${base(b)}/usuarios-pendientes`),
  });
}

export function useInvitations(b: string) {
  return useQuery({
    queryKey: teamKeys.invitations(b),
    queryFn: () => api.get<Invitation[]>(`${base(b)}/invitaciones`),
  });
}

function useTeamMutation<V, R>(b: string, fn: (v: V) => Promise<R>) {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: () =>
      Promise.all([
        qc.invalidateQueries({ queryKey: teamKeys.all(b) }),
        qc.invalidateQueries({ queryKey: ['notifications', b] }),
        qc.invalidateQueries({ queryKey: ['plan', b] }),
        qc.invalidateQueries({ queryKey: ['tasks', b] }),
      ]),
  });
}

export const useInvite = (b: string) =>
  useTeamMutation(b, (v: { email: string; rol: MemberRole; mensaje?: string | null }) =>
    api.post<InvitationCreated>(`${base(b)}/invitaciones`, v),
  );

export const useRevokeInvitation = (b: string) =>
  useTeamMutation(b, (id: string) => api.delete(`${base(b)}/invitaciones/${id}`));

export const useApprove = (b: string) =>
  useTeamMutation(b, ({ userId, payload }: { userId: string; payload: PermissionPayload }) =>
    api.post<{ message: string }>(`${base(b)}/usuarios-pendientes/${userId}/aprobar`, payload),
  );

export const useReject = (b: string) =>
  useTeamMutation(b, (userId: string) =>
    api.post<{ message: string }>(`${base(b)}/usuarios-pendientes/${userId}/rechazar`),
  );

export const useUpdatePermissions = (b: string) =>
  useTeamMutation(b, ({ userId, payload }: { userId: string; payload: PermissionPayload }) =>
    api.put<{ message: string }>(`${base(b)}/usuarios/${userId}/permisos`, payload),
  );

export const useRemoveMember = (b: string) =>
  useTeamMutation(b, (userId: string) => api.delete(`${base(b)}/usuarios/${userId}`));
