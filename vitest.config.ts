import { BaseSequencer, type TestSpecification } from "vitest/node";
import { defineConfig } from "vitest/config";

/**
 * Vitest's order, but the fuzz first. Without timings from an earlier run (a clean checkout has none)
 * Vitest starts the largest files first, which put the fuzz, two small files that run longest, at
 * the end of the run with one worker idle beside it.
 */
class LongestKnownFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const longest = (file: TestSpecification) => (/[/\\]fuzz\.[a-z]+\.test\.ts$/.test(file.moduleId) ? 0 : 1);
    return (await super.sort(files)).sort((a, b) => longest(a) - longest(b));
  }
}

// One run covers every workspace; each project has its own environment and setup.
// In CI a JSON report is written too, for scripts/test-summary.mjs.
export default defineConfig({
  test: {
    // The contract's schemas are exercised through the server and web suites.
    projects: ["packages/messages", "apps/server", "apps/web/vitest.config.ts", "apps/web/vitest.fresh.config.ts"],
    // Two cores: a small pool keeps PostgreSQL, sharp and Chromium from starving each other.
    maxWorkers: 2,
    sequence: { sequencer: LongestKnownFirst },
    reporters: process.env.CI ? ["default", ["json", { outputFile: "test-results/reports/vitest.json" }]] : ["default"],
  },
});
