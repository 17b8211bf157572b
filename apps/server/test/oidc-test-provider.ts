import { randomUUID } from "node:crypto";
import http from "node:http";
import type net from "node:net";
import { exportJWK, generateKeyPair, type JWK, type JWTPayload, SignJWT } from "jose";
import Provider from "oidc-provider";

type PrivateKey = Awaited<ReturnType<typeof generateKeyPair>>["privateKey"];

// Shared by the OpenID Connect tests: a real OpenID Connect provider (the `oidc-provider`
// package) on loopback, with its development login screens, people the test adds, and its
// signing key, so tests can also sign ID tokens as the provider would.

export interface ProviderPerson {
  email?: string;
  email_verified?: boolean;
  name?: string;
}

export interface TestOidcProvider {
  /** http://127.0.0.1:PORT, the issuer. */
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The provider's private signing key and its kid, to sign ID tokens as the provider. */
  signingKey: { key: PrivateKey; kid: string };
  /** Someone who can sign in at the provider with `login` (any password). */
  addPerson(login: string, person: ProviderPerson): void;
  /** Registers our client with its callback; called once the server's address is known. */
  register(redirectUri: string): void;
  /** An ID token for our client signed with the provider's key; `claims` override the defaults. */
  idToken(
    login: string,
    claims?: JWTPayload & { nonce?: string },
    options?: { expiresIn?: string; key?: PrivateKey },
  ): Promise<string>;
  /** The `AUTH_OIDC_PROVIDERS` entry for this provider. */
  setting(id: string, name: string): Record<string, unknown>;
  close(): Promise<void>;
}

export async function startOidcProvider(): Promise<TestOidcProvider> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const kid = "test-signing-key";
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  const people = new Map<string, ProviderPerson>();
  let handler: http.RequestListener = (_request, response) => {
    response.statusCode = 503;
    response.end("not registered yet");
  };
  const server = http.createServer((request, response) => handler(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
  const clientId = "memory-box";
  const clientSecret = "a-client-secret-of-the-memory-box-client";

  return {
    issuer,
    clientId,
    clientSecret,
    signingKey: { key: privateKey, kid },
    addPerson: (login, person) => people.set(login, person),
    register: (redirectUri) => {
      const provider = new Provider(issuer, {
        clients: [
          {
            client_id: clientId,
            client_secret: clientSecret,
            redirect_uris: [redirectUri],
            grant_types: ["authorization_code"],
            response_types: ["code"],
          },
        ],
        jwks: { keys: [jwk] },
        cookies: { keys: ["cookie-key-of-the-test-provider"] },
        // The development login and consent screens, which the tests fill in.
        features: { devInteractions: { enabled: true } },
        claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
        // The claims in the ID token itself, as Google and Keycloak give them.
        conformIdTokenClaims: false,
        findAccount: (_context, login) => {
          const person = people.get(login);
          if (!person) return undefined;
          return { accountId: login, claims: () => ({ sub: login, ...person }) };
        },
      });
      // Its own log lines about development settings are not what the tests are about.
      provider.on("server_error", () => undefined);
      handler = provider.callback();
    },
    idToken: async (login, claims = {}, options = {}) =>
      // A jti of its own: two tokens signed in the same second are still two tokens.
      new SignJWT({ ...people.get(login), jti: randomUUID(), ...claims })
        .setProtectedHeader({ alg: "RS256", kid })
        .setIssuer(claims.iss ?? issuer)
        .setAudience(claims.aud ?? clientId)
        .setSubject(claims.sub ?? login)
        .setIssuedAt()
        .setExpirationTime(options.expiresIn ?? "5m")
        .sign(options.key ?? privateKey),
    setting: (id, name) => ({ id, name, issuer, client_id: clientId, client_secret: clientSecret }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

export interface ProviderJourney {
  /** Where our /callback sent the browser (its Location), or the status and body of an answer that was not a redirect. */
  status: number;
  location: string;
  body: string;
  /** The /callback URL the provider sent the browser to, to replay it. */
  callbackUrl: string;
}

/**
 * Follows a sign-in from our /authorize URL as a browser: through the provider's login screen
 * (as `login`, any password) and consent, to our /callback, whose answer it stops at.
 */
export async function journeyThroughProvider(startUrl: string, login: string, callbackPrefix: string): Promise<ProviderJourney> {
  const cookies = new Map<string, string>();
  const request = async (url: string, init: RequestInit = {}) => {
    const headers = new Headers(init.headers);
    if (cookies.size > 0) headers.set("cookie", [...cookies].map(([name, value]) => `${name}=${value}`).join("; "));
    const response = await fetch(url, { ...init, headers, redirect: "manual" });
    for (const line of response.headers.getSetCookie()) {
      const [pair = ""] = line.split(";");
      const index = pair.indexOf("=");
      const name = pair.slice(0, index).trim();
      if (/expires=Thu, 01 Jan 1970/i.test(line)) cookies.delete(name);
      else cookies.set(name, pair.slice(index + 1).trim());
    }
    return response;
  };
  let url = startUrl;
  let init: RequestInit = {};
  for (let step = 0; step < 20; step += 1) {
    const isCallback = url.startsWith(callbackPrefix);
    const response = await request(url, init);
    init = {};
    const location = response.headers.get("location");
    const body = await response.text();
    if (isCallback) return { status: response.status, location: location ?? "", body, callbackUrl: url };
    if (location) {
      url = new URL(location, url).toString();
      continue;
    }
    const form = /<form[^>]*action="([^"]+)"/.exec(body);
    const prompt = /name="prompt" value="([^"]+)"/.exec(body);
    if (response.status !== 200 || !form?.[1] || !prompt?.[1])
      return { status: response.status, location: "", body, callbackUrl: "" };
    url = new URL(form[1].replace(/&amp;/g, "&"), url).toString();
    const fields: Record<string, string> =
      prompt[1] === "login" ? { prompt: "login", login, password: "any" } : { prompt: prompt[1] };
    init = {
      method: "POST",
      body: new URLSearchParams(fields),
      headers: { "content-type": "application/x-www-form-urlencoded" },
    };
  }
  throw new Error("The sign-in at the provider did not end");
}
