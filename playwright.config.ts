import { defineConfig, devices } from "@playwright/test";
import { oidcPort, samlPort, serverCount, servers, serviceRoleSecret } from "./e2e/servers";
import { recommendedMallocArenas } from "./apps/server/src/lib/malloc-arenas";

// Run through `npm run test:e2e` (scripts/test-e2e.mjs), which finds Debian's Chromium, builds the
// product and chooses free ports (the servers', the OpenID Connect and SAML providers') and a throw-away
// data folder. Never a downloaded browser.
//
// Two workers (E2E_WORKERS), each with a server of its own (e2e/servers.ts): the collection is one per server, and
// the journeys of one worker run in the files' order. The global setup (e2e/members.setup.ts) first
// prepares on each server the members the journeys sign in as, without the UI; the journeys about
// signing up or in do it through the UI.
// The OpenID Connect provider the journeys sign in at (e2e/oidc-provider.mjs): the server names it
// in AUTH_OIDC_PROVIDERS (and reads its discovery document at the first sign-in with it).
const oidcProvider = {
  id: "local",
  name: "Local ID",
  issuer: `http://127.0.0.1:${oidcPort}`,
  client_id: "memory-box",
  client_secret: "memory-box-e2e-client-secret",
  scopes: ["openid", "email", "profile"],
};
// The SAML identity provider of e2e/saml.spec.ts (e2e/saml-identity-provider.mjs); the journey
// registers it through the admin API, as an operator would.

export default defineConfig({
  testDir: "e2e",
  outputDir: "test-results/e2e",
  fullyParallel: true,
  workers: serverCount,
  retries: 0,
  forbidOnly: Boolean(process.env.CI),
  // In CI a JSON report too, for scripts/test-summary.mjs: one per share of the journeys (E2E_REPORT).
  reporter: process.env.CI
    ? [["list"], ["json", { outputFile: `test-results/reports/${process.env.E2E_REPORT ?? "playwright.json"}` }]]
    : [["list"]],
  // A journey takes a few seconds on a quiet machine and about three times as long on one three times
  // slower (a busy two-core one): the limits leave that room, so a limit reached means something hangs.
  timeout: 60_000,
  expect: { timeout: 15_000 },
  use: {
    // The worker's own server (e2e/fixtures.ts); this one for what runs outside a worker.
    baseURL: servers[0]!.url,
    // Recording a trace (a DOM snapshot and a screencast at every step) took a quarter of the
    // journeys' CPU, for runs that pass. A failure keeps its screenshot and the page's ARIA snapshot
    // (error-context.md); E2E_TRACE=1 records traces too, kept for the journeys that fail.
    trace: process.env.E2E_TRACE === "1" ? "retain-on-failure" : "off",
    // The service worker and its precache of the whole app (some sixty files a new browser) are the
    // subject of the journeys about installing and working offline, which allow it
    // (`test.use({ serviceWorkers: "allow" })`); the others run without it, as a first visit does.
    serviceWorkers: "block",
    screenshot: "only-on-failure",
    launchOptions: {
      executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
      // Root in a container needs --no-sandbox; the rest keeps Chromium off the (closed) network.
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
    },
  },
  // Once the processes below answer (it waits for them).
  globalSetup: "./e2e/members.setup.ts",
  projects: [{ name: "chromium", use: { ...devices["Desktop Chrome"], channel: undefined } }],
  // Started side by side: Playwright waits for a process with a `url` before it starts the next one,
  // so none has one, and the global setup waits until every one answers (`readinessUrls`).
  webServer: [
    {
      command: "node e2e/oidc-provider.mjs",
      env: {
        OIDC_PORT: String(oidcPort),
        OIDC_REDIRECT_URIS: servers.map((server) => `${server.url}/auth/v1/callback`).join(","),
        OIDC_CLIENT_ID: oidcProvider.client_id,
        OIDC_CLIENT_SECRET: oidcProvider.client_secret,
      },
    },
    {
      command: "node e2e/saml-identity-provider.mjs",
      env: { SAML_PORT: String(samlPort), SAML_SP_URLS: servers.map((server) => `${server.url}/auth/v1`).join(",") },
    },
    ...servers.map((server) => ({
      command: "node apps/server/dist/main.js",
      // The servers log warnings and errors only (LOG_LEVEL): shown with the run's output, a mail
      // that could not be written or a job that failed explains the journey that waited for it.
      stdout: "pipe" as const,
      env: {
        PORT: String(server.port),
        HOST: "127.0.0.1",
        DATA_DIR: server.dataDir,
        PUBLIC_URL: server.url,
        LOG_LEVEL: "warn",
        // As `npm start` runs it.
        MALLOC_ARENA_MAX: recommendedMallocArenas,
        // The global setup's service-role token is signed with it (e2e/servers.ts).
        AUTH_JWT_SECRET: serviceRoleSecret,
        // Every member of a run signs up from this one browser's address: the per-address limits on
        // e-mails and sign-ins (tested in the server's own tests) would refuse the later journeys.
        AUTH_RATE_LIMIT_EMAIL: "1000",
        AUTH_RATE_LIMIT_TOKEN: "1000",
        AUTH_RATE_LIMIT_VERIFY: "1000",
        AUTH_RATE_LIMIT_INVITE_CHECK: "1000",
        AUTH_OIDC_PROVIDERS: JSON.stringify([oidcProvider]),
        // Solana wallets for e2e/wallet.spec.ts, which gives its page one; no other page has a wallet.
        AUTH_WEB3_SOLANA_ENABLED: "true",
        // SAML single sign-on for e2e/saml.spec.ts, which registers its identity provider; /auth of
        // every journey shows "Continue with single sign-on".
        AUTH_SAML_ENABLED: "true",
        // e2e/notifications.spec.ts's push service listens on loopback over http, as no real one does.
        PUSH_ALLOW_INSECURE_ENDPOINTS: "true",
      },
    })),
  ],
});
