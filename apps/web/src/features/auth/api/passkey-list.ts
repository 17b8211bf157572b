import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import type { Passkey } from "@/features/auth/api/passkeys";
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
    mutationFn: async (name?: string) => {
      const before = new Set((await listOrEmpty()).map((passkey) => passkey.id));
      const { error } = await getAuthClient().registerPasskey();
      if (error) throw error;
      // The server names a new passkey after the browser; the member's own name replaces it.
      const made = (await listOrEmpty()).find((passkey) => !before.has(passkey.id));
      const chosen = name?.trim();
      if (made && chosen && chosen !== made.friendly_name) {
        const renamed = await getAuthClient().passkey.update({ passkeyId: made.id, friendlyName: chosen });
        if (renamed.error) throw renamed.error;
      }
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

async function listOrEmpty(): Promise<Passkey[]> {
  const { data } = await getAuthClient().passkey.list();
  return data ?? [];
}

/** `PATCH /passkeys/:id`: the member's own name for one of their passkeys. */
export function useRenamePasskey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ passkeyId, name }: { passkeyId: string; name: string }) => {
      const { error } = await getAuthClient().passkey.update({ passkeyId, friendlyName: name.trim() });
      if (error) throw error;
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: passkeyKeys.list() }),
  });
}
