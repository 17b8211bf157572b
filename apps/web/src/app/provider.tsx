import type { ReactNode } from "react";

import { DeferredToaster } from "@/components/deferred-toaster";
import { AuthProvider } from "@/lib/auth-provider";

/**
 * Everything the screens share: the session and the one toaster (loaded with the first toast).
 * The query cache is the member screens' alone; their layout route provides it.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <>
      <AuthProvider>{children}</AuthProvider>
      <DeferredToaster position="top-center" richColors closeButton />
    </>
  );
}
