// The OpenID Connect provider the browser journeys sign in at: the `oidc-provider` package on
// loopback, with its development login and consent screens. Playwright starts it before the
// product's servers (playwright.config.ts), which name it in AUTH_OIDC_PROVIDERS.
//
// Whatever login is typed at its screen is the person: their `sub` and their e-mail address,
// marked verified. So a journey decides who signs in by what it types there, as someone with an
// account at Google or a Keycloak would.
import http from "node:http";
import { generateKeyPair, exportJWK } from "jose";
import Provider from "oidc-provider";

const port = Number(process.env.OIDC_PORT ?? 18081);
// One client for every server of the run (each its own /auth/v1/callback), as one registration at a
// provider may list several addresses.
const redirectUris = (process.env.OIDC_REDIRECT_URIS ?? process.env.OIDC_REDIRECT_URI ?? "").split(",").filter(Boolean);
if (redirectUris.length === 0)
  throw new Error("OIDC_REDIRECT_URIS (the product servers' /auth/v1/callback, comma-separated) is required");
const issuer = `http://127.0.0.1:${port}`;

const { privateKey } = await generateKeyPair("RS256", { extractable: true });
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: process.env.OIDC_CLIENT_ID ?? "memory-box",
      client_secret: process.env.OIDC_CLIENT_SECRET ?? "memory-box-e2e-client-secret",
      redirect_uris: redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  jwks: { keys: [{ ...(await exportJWK(privateKey)), kid: "e2e", alg: "RS256", use: "sig" }] },
  cookies: { keys: ["cookie-key-of-the-e2e-provider"] },
  features: { devInteractions: { enabled: true } },
  claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
  conformIdTokenClaims: false,
  findAccount: (_context, login) => ({
    accountId: login,
    claims: () => ({ sub: login, email: login, email_verified: true, name: login.split("@")[0] }),
  }),
});
provider.on("server_error", (_context, error) => console.error("e2e OpenID Connect provider:", error));

const server = http.createServer(provider.callback());
server.listen(port, "127.0.0.1");
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.close(() => process.exit(0)));
