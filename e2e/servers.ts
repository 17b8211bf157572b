import path from "node:path";

/**
 * The product's servers of a run: one per Playwright worker, each with a data folder of its own.
 * Members share one collection per installation, so two journeys on one server at the same time
 * would see each other's memories in their counts, first cards and tags; on a server of its own,
 * each worker's journeys meet only those that ran before them, in the files' order, as when they
 * all ran one at a time. scripts/test-e2e.mjs chooses the ports (E2E_PORTS) and the data folder.
 */

export interface E2eServer {
  index: number;
  port: number;
  /** localhost, not 127.0.0.1: a browser refuses passkeys on a bare IP address (ADR 0025). */
  url: string;
  dataDir: string;
  /** The members the global setup prepared for this server (e2e/members.setup.ts). */
  sessionsDir: string;
}

/** How many servers, and so workers, a run has (E2E_WORKERS, 2 unless told). */
export const serverCount = Math.max(1, Number(process.env.E2E_WORKERS ?? 2));

const dataRoot = process.env.E2E_DATA_DIR ?? "test-results/e2e-data";
const ports = (process.env.E2E_PORTS ?? "").split(",").filter(Boolean).map(Number);

export const servers: E2eServer[] = Array.from({ length: serverCount }, (_, index) => {
  // Without scripts/test-e2e.mjs: 18080, then every third port (the providers take 18081 and 18082).
  const port = ports[index] ?? 18080 + 3 * index;
  return {
    index,
    port,
    url: `http://localhost:${port}`,
    dataDir: path.join(dataRoot, `server-${index}`),
    sessionsDir: path.join(dataRoot, `sessions-${index}`),
  };
});

/** The journeys' OpenID Connect provider's and SAML identity provider's ports (scripts/test-e2e.mjs chooses them). */
export const oidcPort = Number(process.env.E2E_OIDC_PORT ?? 18081);
export const samlPort = Number(process.env.E2E_SAML_PORT ?? 18082);

/** What answers once every process of the run is up: the two providers, then each server's health. */
export const readinessUrls = [
  `http://127.0.0.1:${oidcPort}/.well-known/openid-configuration`,
  `http://127.0.0.1:${samlPort}/metadata`,
  ...servers.map((server) => `http://127.0.0.1:${server.port}/api/health`),
];

/** The server of the worker in `parallelIndex` (a worker started again after a failure keeps it). */
export function serverOf(parallelIndex: number): E2eServer {
  return servers[parallelIndex % serverCount]!;
}

/**
 * The HS256 secret the journeys' servers accept admin tokens with (AUTH_JWT_SECRET), so the
 * global setup signs its service-role token itself instead of asking the CLI on every server.
 * Throw-away servers on loopback only.
 */
export const serviceRoleSecret = "memory-box-e2e-service-role-secret-of-the-journeys";
