import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { getAuthClient } from "@/lib/auth-client";

/**
 * The account's passkeys, for Settings (TanStack Query's hooks: apart from passkeys.ts, which the
 * sign-in page loads without the query client).
 */
const passkeyKeys = { list: () => ["account", "passkeys"] as const };

export function usePasskeys() {
  return useQuery(
    queryOptions({
      queryKey: passkeyKeys.list(),
      queryFn: async () => {
        const { data, error } = await getAuthClient().passkey.list();
        if (error) throw error;
        return data;
      },
    }),
  );
}

/** The whole ceremony: options from the server, the browser's prompt, the answer verified. */
export function useAddPasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const { error } = await getAuthClient().registerPasskey();
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list() }),
  });
}

export function useRemovePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (passkeyId: string) => {
      const { error } = await getAuthClient().passkey.delete({ passkeyId });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list() }),
  });
}
