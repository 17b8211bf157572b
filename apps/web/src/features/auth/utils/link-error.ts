import { ErrorCode } from "@memory-box/contract";

import { activeIntl, wordSpace, type AppIntl } from "@/lib/intl";

/** An e-mailed link that could not sign in: the auth server sends the visitor back with `#error=…`. */
export interface LinkError {
  code: string;
  description: string;
}

/** The error an e-mailed link came back with, from the URL's fragment; undefined when there is none. */
export function linkErrorFrom(hash: string): LinkError | undefined {
  const params = new URLSearchParams(hash.startsWith("#") ? hash.slice(1) : hash);
  const code = params.get("error_code") ?? params.get("error");
  if (!code) return undefined;
  return { code, description: params.get("error_description") ?? "" };
}

/**
 * The error in words (an expired link's in the member's language, any other the server's), with
 * what to do next.
 */
export function linkErrorText(error: LinkError, intl: AppIntl = activeIntl()): string {
  const said = error.description.trim().replace(/\.?$/, ".");
  const what =
    error.code === ErrorCode.otp_expired
      ? intl.formatMessage({ id: "linkError.expired" })
      : said === "."
        ? intl.formatMessage({ id: "linkError.didNotWork" })
        : said;
  return what + wordSpace + intl.formatMessage({ id: "linkError.advice" });
}
