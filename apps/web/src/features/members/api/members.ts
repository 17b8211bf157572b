import type { InvitationSent, Member, MemberDirectory, MemberRole } from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";

export const memberKeys = {
  directory: () => ["members"] as const,
};

/** Who is in; owners also get the pending invitations and each member's dates. */
export function getMembers({ signal }: { signal?: AbortSignal } = {}): Promise<MemberDirectory> {
  return apiFetch<MemberDirectory>("/api/v1/members", { signal });
}

export function useMembers() {
  return useQuery(
    queryOptions({
      queryKey: memberKeys.directory(),
      queryFn: ({ signal }) => getMembers({ signal }),
      refetchOnWindowFocus: true,
    }),
  );
}

/** An owner's change to who is in; the directory is read again after it, whatever the answer. */
function useMembersChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: memberKeys.directory() }),
  });
}

export function useInvite() {
  return useMembersChange((email: string) =>
    apiFetch<InvitationSent>("/api/v1/members/invitations", { method: "POST", body: { email } }),
  );
}

export function useRevokeInvitation() {
  return useMembersChange((email: string) =>
    apiFetch<void>(`/api/v1/members/invitations/${encodeURIComponent(email)}`, { method: "DELETE" }),
  );
}

export function useRemoveMember() {
  return useMembersChange((id: string) => apiFetch<void>(`/api/v1/members/${encodeURIComponent(id)}`, { method: "DELETE" }));
}

export function useSetRole() {
  return useMembersChange(({ id, role }: { id: string; role: MemberRole }) =>
    apiFetch<Member>(`/api/v1/members/${encodeURIComponent(id)}/role`, { method: "PUT", body: { role } }),
  );
}

/** An owner turns off a member's two-step verification (they lost their authenticator app). */
export function useResetSecondFactors() {
  return useMembersChange((id: string) =>
    apiFetch<void>(`/api/v1/members/${encodeURIComponent(id)}/factors`, { method: "DELETE" }),
  );
}
