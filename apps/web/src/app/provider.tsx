import type { ReactNode } from "react";

import { I18nProvider } from "@/app/i18n-provider";
import { DeferredToaster } from "@/components/deferred-toaster";
import { UpdatePrompt } from "@/components/update-prompt";
import { AuthProvider } from "@/lib/auth-provider";

/**
 * Everything the screens share: the member's language, the session, the one toaster (loaded with the first toast) and
 * the service worker, with its offer of a new version.
 * The query cache is the member screens' alone; their layout route provides it.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <AuthProvider>{children}</AuthProvider>
      <DeferredToaster position="top-center" richColors closeButton />
      <UpdatePrompt />
    </I18nProvider>
  );
}
