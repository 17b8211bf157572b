import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTlsTestServer, type TlsTestServer } from "../../test/tls-test-server";
import { guardedFetch, type GuardedFetchOptions, isPublicAddress, OutboundFetchError } from "./guarded-fetch";

// Outbound fetches to addresses an owner gives (ADR 0045): nothing inside the machine or its
// network is reached, by name, by literal address, or by a redirect, unless the operator allowed
// the host; answers are bounded in size and time.

const forbidden = [
  ["loopback", "127.0.0.1"],
  ["loopback, elsewhere in 127/8", "127.255.0.9"],
  ["private 10/8", "10.1.2.3"],
  ["private 172.16/12", "172.16.0.1"],
  ["private 172.16/12, its end", "172.31.255.254"],
  ["private 192.168/16", "192.168.1.1"],
  ["link-local", "169.254.1.1"],
  ["the cloud metadata address", "169.254.169.254"],
  ["carrier-grade NAT 100.64/10", "100.64.0.1"],
  ["unspecified", "0.0.0.0"],
  ["this network 0/8", "0.1.2.3"],
  ["broadcast", "255.255.255.255"],
  ["multicast", "224.0.0.1"],
  ["reserved 240/4", "240.0.0.1"],
  ["IPv6 loopback", "::1"],
  ["IPv6 unspecified", "::"],
  ["IPv6 unique local fc00::/7", "fd12:3456::1"],
  ["IPv6 unique local, fc00", "fc00::1"],
  ["IPv6 link-local fe80::/10", "fe80::1"],
  ["IPv4-mapped loopback", "::ffff:127.0.0.1"],
  ["IPv4-mapped private", "::ffff:10.0.0.1"],
  ["IPv4-mapped metadata address", "::ffff:169.254.169.254"],
  ["NAT64 of a private address", "64:ff9b::a00:1"],
  ["6to4 of a private address", "2002:a00:1::1"],
  ["IPv6 multicast", "ff02::1"],
] as const;

describe("isPublicAddress", () => {
  it.each(forbidden)("refuses %s (%s)", (_range, address) => {
    expect(isPublicAddress(address)).toBe(false);
  });

  it.each(["93.184.216.34", "8.8.8.8", "172.32.0.1", "100.128.0.1", "2606:4700:4700::1111", "::ffff:8.8.8.8"])(
    "lets %s through",
    (address) => {
      expect(isPublicAddress(address)).toBe(true);
    },
  );

  it("refuses what is not an address", () => {
    expect(isPublicAddress("example.org")).toBe(false);
    expect(isPublicAddress("")).toBe(false);
  });
});

describe("guardedFetch", () => {
  let server: TlsTestServer;
  /** Where the test server's `/to` sends the client next. */
  let redirectTarget = "";

  beforeAll(async () => {
    server = await startTlsTestServer((request, response) => {
      if (request.url === "/to") {
        response.writeHead(302, { location: redirectTarget }).end();
      } else if (request.url === "/loop") {
        response.writeHead(301, { location: "/loop" }).end();
      } else if (request.url === "/large") {
        response.writeHead(200);
        response.end(Buffer.alloc(64 * 1024, "a"));
      } else if (request.url === "/slow") {
        setTimeout(() => response.end("late"), 2_000).unref();
      } else {
        response.end("<metadata/>");
      }
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const options = (more: Partial<GuardedFetchOptions> = {}): GuardedFetchOptions => ({
    timeoutMs: 5_000,
    maxBytes: 1024 * 1024,
    ca: server.certificate,
    ...more,
  });

  async function failureOf(promise: Promise<unknown>): Promise<OutboundFetchError> {
    const error = await promise.then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(OutboundFetchError);
    return error as OutboundFetchError;
  }

  it("refuses a host name that resolves to loopback (localhost)", async () => {
    const error = await failureOf(guardedFetch(server.url("/", "localhost"), options()));
    expect(error.reason).toBe("address_refused");
    expect(error.message).toMatch(/localhost \((127\.0\.0\.1|::1)\) is not a public address/);
  });

  it.each(["127.0.0.1", "10.0.0.1", "169.254.169.254", "[::1]", "[::ffff:127.0.0.1]", "[fd00::1]", "0.0.0.0", "0x7f.1"])(
    "refuses the literal address %s without connecting",
    async (host) => {
      const error = await failureOf(guardedFetch(`https://${host}:${server.port}/`, options()));
      expect(error.reason).toBe("address_refused");
    },
  );

  it("refuses a name when any one of its addresses is not public, and connects to none", async () => {
    const resolve = async () => [
      { address: "93.184.216.34", family: 4 },
      { address: "10.0.0.7", family: 4 },
    ];
    const error = await failureOf(guardedFetch("https://idp.example.org/metadata", options({ resolve })));
    expect(error.reason).toBe("address_refused");
    expect(error.message).toContain("10.0.0.7");
  });

  it("connects to the address it checked, not to one a second lookup would give", async () => {
    // The resolver answers a public address once, then loopback (DNS rebinding). The connection
    // uses the first answer; no second lookup is made, so the loopback server is never reached.
    const answers = [[{ address: "93.184.216.34", family: 4 }], [{ address: "127.0.0.1", family: 4 }]];
    let lookups = 0;
    const resolve = async () => answers[Math.min(lookups++, 1)]!;
    const error = await failureOf(guardedFetch(server.url("/", "rebinding.example"), options({ resolve, timeoutMs: 500 })));
    expect(lookups).toBe(1);
    expect(["timeout", "unreachable"]).toContain(error.reason);
  });

  it("fetches from a host the operator allowed", async () => {
    const response = await guardedFetch(server.url("/"), options({ allowedHosts: ["127.0.0.1"] }));
    expect(response.status).toBe(200);
    expect(response.body.toString()).toBe("<metadata/>");
  });

  it.each([
    ["a name that resolves to loopback", (port: number) => `https://localhost:${port}/`],
    ["the cloud metadata address", () => "https://169.254.169.254/latest/meta-data/"],
    ["a private address", () => "https://10.0.0.1/metadata"],
    ["IPv6 loopback", (port: number) => `https://[::1]:${port}/`],
  ])("refuses a redirect from an allowed host to %s", async (_label, target) => {
    redirectTarget = target(server.port);
    const error = await failureOf(guardedFetch(server.url("/to"), options({ allowedHosts: ["127.0.0.1"] })));
    expect(error.reason).toBe("address_refused");
  });

  it("follows a redirect to an allowed host", async () => {
    redirectTarget = server.url("/", "localhost");
    const response = await guardedFetch(server.url("/to"), options({ allowedHosts: ["127.0.0.1", "localhost"] }));
    expect(response.body.toString()).toBe("<metadata/>");
    expect(response.url).toBe(server.url("/", "localhost"));
  });

  it("refuses a redirect away from https", async () => {
    redirectTarget = `http://127.0.0.1:${server.port}/`;
    const error = await failureOf(guardedFetch(server.url("/to"), options({ allowedHosts: ["127.0.0.1"] })));
    expect(error.reason).toBe("redirect_refused");
  });

  it("follows a bounded number of redirects", async () => {
    const error = await failureOf(guardedFetch(server.url("/loop"), options({ allowedHosts: ["127.0.0.1"], maxRedirects: 3 })));
    expect(error.reason).toBe("redirect_refused");
    expect(error.message).toBe("more than 3 redirects");
  });

  it("refuses an answer larger than the bound", async () => {
    const error = await failureOf(guardedFetch(server.url("/large"), options({ allowedHosts: ["127.0.0.1"], maxBytes: 1024 })));
    expect(error.reason).toBe("too_large");
  });

  it("gives up on an answer that takes longer than the bound", async () => {
    const error = await failureOf(guardedFetch(server.url("/slow"), options({ allowedHosts: ["127.0.0.1"], timeoutMs: 300 })));
    expect(error.reason).toBe("timeout");
  });
});
