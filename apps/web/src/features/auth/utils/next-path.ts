import { paths } from "@/config/paths";

const probeOrigin = "http://next-path.invalid";

/**
 * Where to go after signing in, from the `next` query parameter. Only a path on this site is
 * honoured; anything that could leave it (`//host`, `/\host`, `https:`, `javascript:`, control
 * characters browsers strip) or lead back to the auth screen gives the home screen.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next?.startsWith("/") || next.startsWith("//")) return paths.home;
  for (const char of next) {
    const code = char.charCodeAt(0);
    if (char === "\\" || code <= 0x20 || code === 0x7f) return paths.home;
  }
  let url: URL;
  try {
    url = new URL(next, probeOrigin);
  } catch {
    return paths.home;
  }
  if (url.origin !== probeOrigin || url.pathname === paths.auth) return paths.home;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The auth screen's address for a visitor who wanted `path` (path plus query); home needs no `next`. */
export function authPathFor(path: string): string {
  if (safeNextPath(path) === paths.home) return paths.auth;
  // Slashes stay readable (`?next=/memory/42`); everything else that could end the parameter is escaped.
  return `${paths.auth}?next=${encodeURIComponent(path).replace(/%2F/gi, "/")}`;
}
