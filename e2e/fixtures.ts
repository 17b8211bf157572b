import { test as base } from "@playwright/test";
import { type E2eServer, serverOf } from "./servers";

/**
 * Playwright's `test`, with each worker on its own server (e2e/servers.ts): `page`, `context`,
 * `request` and `browser.newContext()` all go to it.
 */
export const test = base.extend<object, { server: E2eServer }>({
  // eslint-disable-next-line no-empty-pattern -- Playwright reads a fixture's dependencies from this pattern.
  server: [async ({}, use, workerInfo) => use(serverOf(workerInfo.parallelIndex)), { scope: "worker" }],
  baseURL: async ({ server }, use) => use(server.url),
});

export { expect } from "@playwright/test";
