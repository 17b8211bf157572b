import {
  ErrorCode,
  type SingleSignOnOverview,
  type SingleSignOnProvider,
  type SingleSignOnProviderInput,
} from "@memory-box/contract";
import { queryOptions, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";

import { ApiError, apiFetch } from "@/lib/api-client";

export const singleSignOnKeys = {
  overview: () => ["single-sign-on"] as const,
};

/** This server as a SAML service provider, and the household's identity providers (owners only, ADR 0036). */
export function getSingleSignOn({ signal }: { signal?: AbortSignal } = {}): Promise<SingleSignOnOverview> {
  return apiFetch<SingleSignOnOverview>("/api/v1/single-sign-on", { signal });
}

/**
 * Not for this person or not on this server: a member who is not an owner (403), or SAML turned
 * off on the server (422). Settings then shows no single sign-on at all, rather than an error.
 */
export function isSingleSignOnUnavailable(error: unknown): boolean {
  return error instanceof ApiError && (error.code === ErrorCode.owner_only || error.code === ErrorCode.sso_provider_disabled);
}

/** Asked only when `enabled` (the member is an owner): everyone else would be refused anyway. */
export function useSingleSignOnOverview({ enabled }: { enabled: boolean }) {
  return useQuery(
    queryOptions({
      queryKey: singleSignOnKeys.overview(),
      queryFn: ({ signal }) => getSingleSignOn({ signal }),
      enabled,
      // A refusal is the server's settled answer; retrying it would only keep a skeleton up longer.
      retry: (failures, error) => !isSingleSignOnUnavailable(error) && failures < 1,
    }),
  );
}

/** An owner's change to the identity providers; the overview is read again after it, whatever the answer. */
function useSingleSignOnChange<Input, Output>(change: (input: Input) => Promise<Output>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSettled: () => queryClient.invalidateQueries({ queryKey: singleSignOnKeys.overview() }),
  });
}

export function useAddIdentityProvider() {
  return useSingleSignOnChange((input: SingleSignOnProviderInput) =>
    apiFetch<SingleSignOnProvider>("/api/v1/single-sign-on/providers", { method: "POST", body: input }),
  );
}

export function useRemoveIdentityProvider() {
  return useSingleSignOnChange((id: string) =>
    apiFetch<void>(`/api/v1/single-sign-on/providers/${encodeURIComponent(id)}`, { method: "DELETE" }),
  );
}
