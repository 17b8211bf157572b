import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    name: "server",
    environment: "node",
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    // Each test file gets its own databases and folders, so files may run side by side. The files of
    // a worker share one module graph (the server's modules are imported once per worker, not once
    // per file): no server test replaces a module, and each builds its app from its own settings.
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
