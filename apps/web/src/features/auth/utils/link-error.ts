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

/** The error in words (the server's, "Email link is invalid or has expired"), with what to do next. */
export function linkErrorText(error: LinkError): string {
  const said = error.description.trim().replace(/\.?$/, ".");
  return `${said === "." ? "The link did not work." : said} Each link works once, for a limited time: ask for a new one.`;
}
