import { defineProject, mergeConfig } from "vitest/config";
import viteConfig from "./vite.config.ts";

/**
 * Screens whose tests need a fresh module graph per file: they replace modules (`vi.mock`) or globals (a browser wallet), or read
 * what the app loads once per page (the first screen's shared state, the lazily loaded toaster, the
 * sign-in settings kept after the first answer). They run in the `web-fresh` project
 * (vitest.fresh.config.ts), every file in a module graph of its own.
 */
export const freshModuleFiles = [
  "src/components/deferred-toaster.test.tsx",
  "src/app/first-screen/first-screen.test.tsx",
  "src/app/routes/auth-providers.test.tsx",
  "src/app/routes/settings-single-sign-on.test.tsx",
  "src/app/routes/single-sign-on.test.tsx",
  "src/app/routes/wallet-sign-in.test.tsx",
  "src/app/routes/places.test.tsx",
  "src/features/places/map/map-picker.test.tsx",
  "src/features/places/components/place-field.test.tsx",
];

/** The web tests' project: the app's Vite config (so `@/` and JSX resolve as in the build) and jsdom. */
export function webProject(test: { name: string; include: string[]; exclude: string[]; isolate: boolean }) {
  return mergeConfig(
    viteConfig,
    defineProject({
      resolve: {
        // The tests run in Node, where a package's "browser" field is not read: the tus client
        // would take its Node build, which cannot read a browser File.
        alias: [{ find: /^tus-js-client$/, replacement: "tus-js-client/lib.esm/browser/index.js" }],
      },
      test: {
        ...test,
        environment: "jsdom",
        setupFiles: ["src/testing/setup-tests.ts"],
        // Screens typed into with user-event take a second or two alone; beside the server suite on
        // two cores, several times that.
        testTimeout: 15_000,
      },
    }),
  );
}

// The files of a worker share one module graph (React, the router and the query library are
// imported once, not once per file); each test renders into a document of its own.
export default webProject({
  name: "web",
  include: ["src/**/*.test.{ts,tsx}"],
  exclude: freshModuleFiles,
  isolate: false,
});
