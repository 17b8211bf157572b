import type { Locale } from "@memory-box/messages";

import { getAuthClient } from "@/lib/auth-client";

/**
 * Keeps the member's language on the account too (`PUT /auth/v1/user`, `data.locale`), so the
 * e-mails the server sends them are in it; `null` follows the browser again. Answers whether it
 * was kept.
 */
export async function saveAccountLocale(locale: Locale | null): Promise<boolean> {
  try {
    const { error } = await getAuthClient().updateUser({ data: { locale } });
    return !error;
  } catch {
    return false;
  }
}
