import { lookup as dnsLookup } from "node:dns/promises";
import type { IncomingMessage } from "node:http";
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import type { SecureContextOptions } from "node:tls";
import ipaddr from "ipaddr.js";

/**
 * Fetches a document from an address someone other than the operator gave (an owner's SAML
 * metadata URL), without letting that address reach inside the machine or its network (ADR 0045):
 * every address a host name resolves to must be a public unicast one, the connection goes to the
 * address that was checked (a second DNS answer cannot swap it), redirects are followed by hand,
 * a few at most, each checked the same way, and the answer is bounded in size and time. Hosts
 * the operator names in `allowedHosts` are fetched whatever they resolve to.
 */

export type OutboundFetchFailure =
  /** The host is, or resolves to, a loopback, private, link-local or otherwise non-public address. */
  | "address_refused"
  /** A redirect left https, or there were too many. */
  | "redirect_refused"
  | "too_large"
  | "timeout"
  /** Anything else on the way: DNS, connection, TLS. */
  | "unreachable";

export class OutboundFetchError extends Error {
  constructor(
    readonly reason: OutboundFetchFailure,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = "OutboundFetchError";
  }
}

/** What a host name resolves to: every address, as `dns.lookup(name, { all: true })` answers. */
export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

export interface GuardedFetchOptions {
  /** Host names or IP addresses (lower case, IPv6 without brackets) fetched even when not public. */
  allowedHosts?: readonly string[];
  timeoutMs: number;
  maxBytes: number;
  /** Redirects followed, each to an https address checked like the first. */
  maxRedirects?: number;
  headers?: Record<string, string>;
  /** Certificates trusted instead of the system's (a test's own certificate authority). */
  ca?: SecureContextOptions["ca"];
  /** Another resolver than the system's (tests). */
  resolve?: Resolver;
  /** GET unless given (a push message is a POST). */
  method?: string;
  body?: Buffer;
  /**
   * The operator's choice to reach any address, over http:// too (a push service on their own
   * network, or tests'): every check here is off.
   */
  allowAnyAddress?: boolean;
}

export interface GuardedResponse {
  status: number;
  body: Buffer;
  /** The address the answer came from, after redirects. */
  url: string;
}

const redirectStatuses = new Set([301, 302, 303, 307, 308]);
const systemResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

/**
 * Whether an address is one the public internet routes to this machine's outside: after an
 * IPv4-mapped IPv6 address is read as the IPv4 one, its range must be plain unicast (not loopback,
 * private, carrier-grade NAT, link-local with the cloud metadata address, unique local,
 * unspecified, multicast, reserved, or an IPv6 form that carries an IPv4 address: 6to4, NAT64,
 * Teredo).
 */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  return ipaddr.process(address).range() === "unicast";
}

export async function guardedFetch(url: string, options: GuardedFetchOptions): Promise<GuardedResponse> {
  const maxRedirects = options.maxRedirects ?? 5;
  const signal = AbortSignal.timeout(options.timeoutMs);
  let current = new URL(url);
  for (let hop = 0; ; hop += 1) {
    if (current.protocol !== "https:" && !(options.allowAnyAddress && current.protocol === "http:"))
      throw new OutboundFetchError("redirect_refused", `${current.origin} is not an https address`);
    const response = await requestOnce(current, options, signal);
    const location = response.headers.location;
    if (redirectStatuses.has(response.statusCode ?? 0) && location) {
      // Its body is not read: the connection was this request's alone.
      response.destroy();
      if (hop >= maxRedirects) throw new OutboundFetchError("redirect_refused", `more than ${maxRedirects} redirects`);
      try {
        current = new URL(location, current);
      } catch (error) {
        throw new OutboundFetchError("redirect_refused", "a redirect to an address that is not a URL", { cause: error });
      }
      continue;
    }
    const body = await readBounded(response, options.maxBytes, signal);
    return { status: response.statusCode ?? 0, body, url: current.toString() };
  }
}

/** One request, connected only to an address that passed the check. */
function requestOnce(url: URL, options: GuardedFetchOptions, signal: AbortSignal): Promise<IncomingMessage> {
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  const allowed = options.allowAnyAddress === true || (options.allowedHosts?.includes(host) ?? false);
  const resolve = options.resolve ?? systemResolver;
  // A literal address is connected to without a lookup, so it is checked here; a name in `lookup`.
  if (ipaddr.isValid(host) && !allowed && !isPublicAddress(host)) return Promise.reject(refused(host, host));
  const lookup: LookupFunction = (hostname, lookupOptions, callback) => {
    resolve(hostname).then(
      (addresses) => {
        if (addresses.length === 0)
          return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "", 4);
        const forbidden = allowed ? undefined : addresses.find(({ address }) => !isPublicAddress(address));
        if (forbidden) return callback(refused(hostname, forbidden.address), "", 4);
        if (lookupOptions.all) return (callback as unknown as (error: null, all: typeof addresses) => void)(null, addresses);
        const family = lookupOptions.family === 6 || lookupOptions.family === 4 ? lookupOptions.family : undefined;
        const chosen = addresses.find((candidate) => family === undefined || candidate.family === family) ?? addresses[0]!;
        callback(null, chosen.address, chosen.family);
      },
      (error: Error) => callback(error as NodeJS.ErrnoException, "", 4),
    );
  };
  return new Promise((resolvePromise, reject) => {
    const request = (url.protocol === "http:" ? http : https).request(url, {
      method: options.method ?? "GET",
      headers: options.headers,
      lookup,
      // A connection of its own: nothing pooled from an earlier request to another address is reused.
      agent: false,
      signal,
      ...(options.ca ? { ca: options.ca } : {}),
    });
    request.once("response", resolvePromise);
    // Kept after the answer came: a late error (an abort while the body streams) must not go unheard.
    request.on("error", (error) => reject(failure(error, url, signal)));
    request.end(options.body);
  });
}

async function readBounded(response: IncomingMessage, maxBytes: number, signal: AbortSignal): Promise<Buffer> {
  const declared = Number(response.headers["content-length"] ?? 0);
  const tooLarge = () => new OutboundFetchError("too_large", `the answer is larger than ${maxBytes} bytes`);
  if (declared > maxBytes) {
    response.destroy();
    throw tooLarge();
  }
  const chunks: Buffer[] = [];
  let length = 0;
  try {
    for await (const chunk of response) {
      length += (chunk as Buffer).length;
      if (length > maxBytes) {
        response.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
  } catch (error) {
    if (error instanceof OutboundFetchError) throw error;
    throw failure(error, undefined, signal);
  }
  return Buffer.concat(chunks);
}

function refused(host: string, address: string): OutboundFetchError {
  const shown = host === address ? address : `${host} (${address})`;
  return new OutboundFetchError("address_refused", `${shown} is not a public address`);
}

function failure(error: unknown, url: URL | undefined, signal: AbortSignal): OutboundFetchError {
  if (error instanceof OutboundFetchError) return error;
  if (signal.aborted) return new OutboundFetchError("timeout", "no answer in time", { cause: error });
  const where = url ? ` from ${url.host}` : "";
  return new OutboundFetchError("unreachable", `no answer${where}`, { cause: error });
}
