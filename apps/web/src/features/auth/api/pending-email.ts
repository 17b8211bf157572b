import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { getAuthClient } from "@/lib/auth-client";

const pendingEmailKey = ["account", "pending-email"] as const;

/**
 * The address waiting for confirmation (`new_email` of `GET /user`), read from the server so it
 * is still shown after a reload; null when no change is pending.
 */
export function usePendingEmail() {
  return useQuery({
    queryKey: pendingEmailKey,
    queryFn: async () => {
      const { data, error } = await getAuthClient().getUser();
      if (error) throw error;
      return data.user.new_email ?? null;
    },
  });
}

/** Reads the pending address again (after a change was asked for, confirmed or withdrawn). */
export function useRefreshPendingEmail() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: pendingEmailKey });
}

/**
 * Withdraws the pending change: `PUT /user` with the current address again, which the server takes
 * as "no new address" (ADR 0067); the mailed link and code stop working.
 */
export function useCancelEmailChange() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (currentEmail: string) => {
      const { error } = await getAuthClient().updateUser({ email: currentEmail });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: pendingEmailKey }),
  });
}
