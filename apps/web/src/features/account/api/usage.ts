import type { AccountUsage } from "@memory-box/contract";
import { queryOptions, useQuery } from "@tanstack/react-query";

import { apiFetch } from "@/lib/api-client";

/** `GET /api/v1/account/usage`: how much the member's photos and videos take on the server. */
export function useAccountUsage() {
  return useQuery(
    queryOptions({
      queryKey: ["account", "usage"] as const,
      queryFn: ({ signal }) => apiFetch<AccountUsage>("/api/v1/account/usage", { signal }),
    }),
  );
}
