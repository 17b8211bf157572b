/**
 * Where may an e-mailed link send someone after it is opened? Only to the site itself or to an
 * address the operator allowed; anything else falls back to the site, so a link can never carry a
 * session to a stranger's server.
 */
export function resolveRedirect(requested: string | undefined, siteUrl: string, allowList: string[]): string {
  if (!requested) return siteUrl;
  let target: URL;
  try {
    target = new URL(requested);
  } catch {
    return siteUrl;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return siteUrl;
  if (target.origin === new URL(siteUrl).origin) return requested;
  return allowList.some((pattern) => globToRegExp(pattern).test(requested)) ? requested : siteUrl;
}

/** `**` matches anything, `*` anything but `/` and `.`; everything else is literal. */
function globToRegExp(pattern: string): RegExp {
  const escaped = pattern
    .split("**")
    .map((part) =>
      part
        .split("*")
        .map((literal) => literal.replace(/[.+?^${}()|[\]\\]/g, "\\$&"))
        .join("[^/.]*"),
    )
    .join(".*");
  return new RegExp(`^${escaped}$`);
}
