import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each test file gets its own databases and folders, so files may run side by side.
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
