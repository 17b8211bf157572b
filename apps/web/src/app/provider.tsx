import type { ReactNode } from "react";

import { I18nProvider } from "@/app/i18n-provider";
import { DeferredToaster } from "@/components/deferred-toaster";
import { offlineBannerHeightVariable } from "@/components/offline-banner";
import { UpdatePrompt } from "@/components/update-prompt";
import { AuthProvider } from "@/lib/auth-provider";

const toastTop = (gap: number) => `calc(var(${offlineBannerHeightVariable}, 0px) + ${gap}px)`;

/**
 * Everything the screens share: the member's language, the session, the one toaster (loaded with the first toast) and
 * the service worker, with its offer of a new version.
 * The query cache is the member screens' alone; their layout route provides it.
 */
export function AppProvider({ children }: { children: ReactNode }) {
  return (
    <I18nProvider>
      <AuthProvider>{children}</AuthProvider>
      {/* Toasts start below the offline banner, so "Saved on this device" never covers it (issue #34). */}
      <DeferredToaster
        position="top-center"
        richColors
        closeButton
        offset={{ top: toastTop(24) }}
        mobileOffset={{ top: toastTop(16) }}
      />
      <UpdatePrompt />
    </I18nProvider>
  );
}
