import { defineConfig } from "vitest/config";

// One run covers every workspace; each project has its own environment and setup.
// In CI a JSON report is written too, for scripts/test-summary.mjs.
export default defineConfig({
  test: {
    // The contract's schemas are exercised through the server and web suites.
    projects: ["apps/server", "apps/web/vitest.config.ts", "apps/web/vitest.fresh.config.ts"],
    // Two cores: a small pool keeps PostgreSQL, sharp and Chromium from starving each other.
    maxWorkers: 2,
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results/reports/vitest.json" }]] : ["default"],
  },
});
