/**
 * Where may an e-mailed link send someone after it is opened? Only to the site itself or to an
 * address the operator allowed; anything else falls back to the site, so a link can never carry a
 * session to a stranger's server.
 *
 * Decisions are made on the URL as a browser reads it (WHATWG parsing, serialised back), and that
 * serialised form is what the redirect uses: matching the raw string instead would let
 * `http://localhost:@3405803783/x` match an allowed "any localhost port" pattern while the
 * browser goes to 203.0.113.7 (that number's dotted form), and a raw control character or
 * non-ASCII text would break the Location header.
 */
export function resolveRedirect(requested: string | undefined, siteUrl: string, allowList: string[]): string {
  if (!requested) return siteUrl;
  return allowedRedirect(requested, siteUrl, allowList) ?? siteUrl;
}

/**
 * Whether `url` is the site or an address the operator allowed, as Supabase Auth's
 * `IsRedirectURLValid` decides (a signed wallet message's URI and domain are checked with it).
 */
export function isAllowedRedirect(url: string, siteUrl: string, allowList: string[]): boolean {
  return allowedRedirect(url, siteUrl, allowList) !== undefined;
}

/** The URL as the browser would go to it, when allowed; undefined otherwise. */
function allowedRedirect(requested: string, siteUrl: string, allowList: string[]): string | undefined {
  // Go's URL parser, which Supabase Auth uses, refuses control characters; the WHATWG one drops them.
  if (/\p{Cc}/u.test(requested)) return undefined;
  let target: URL;
  try {
    target = new URL(requested);
  } catch {
    return undefined;
  }
  if (target.protocol !== "http:" && target.protocol !== "https:") return undefined;
  // Credentials in a redirect serve no one but a phisher.
  if (target.username !== "" || target.password !== "") return undefined;
  if (target.origin === new URL(siteUrl).origin) return target.href;
  // "https://app.example.org" in the list still matches that bare origin, which serialises with a slash.
  const candidates = target.pathname === "/" && !target.search && !target.hash ? [target.href, target.origin] : [target.href];
  return allowList.some((pattern) => candidates.some((candidate) => globToRegExp(pattern).test(candidate)))
    ? target.href
    : undefined;
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
