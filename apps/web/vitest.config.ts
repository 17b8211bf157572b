import { defineProject, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

// Reuses the app's Vite config so tests resolve `@/` and compile JSX exactly like the build.
export default mergeConfig(
  viteConfig,
  defineProject({
    test: {
      name: "web",
      environment: "jsdom",
      setupFiles: ["src/testing/setup-tests.ts"],
      include: ["src/**/*.test.{ts,tsx}"],
      // Screens typed into with user-event take a second or two alone; beside the server suite on
      // two cores, several times that.
      testTimeout: 15_000,
    },
  }),
);
