// Bundles the server into dist/ with esbuild. npm dependencies stay external (native modules
// such as better-sqlite3 and sharp cannot be bundled); workspace packages are bundled in,
// because they ship TypeScript source.
import { readdir, readFile } from "node:fs/promises";
import { build } from "esbuild";

const dependenciesOf = async (packageJson) =>
  Object.keys(JSON.parse(await readFile(new URL(packageJson, import.meta.url), "utf8")).dependencies ?? {});
// The contract's own dependencies (zod) are loaded from node_modules like the server's, not
// copied into every bundle.
const external = [
  ...(await dependenciesOf("./package.json")),
  ...(await dependenciesOf("../../packages/contract/package.json")),
].filter((name) => !name.startsWith("@memory-box/"));

// Each operator command is a bundle of its own (dist/commands/), which cli.js loads only when that
// command runs: `npm run export` does not load the image library, the mailer or the S3 client
// unless it uses them. cli.js's `import("./x.command")` becomes a runtime import of that file.
const commandFiles = (await readdir(new URL("./src/cli", import.meta.url))).filter((name) => /^[\w-]+\.command\.ts$/.test(name));
const commandsApart = {
  name: "commands-apart",
  setup(build) {
    build.onResolve({ filter: /^\.\/[\w-]+\.command$/ }, (args) =>
      args.kind === "dynamic-import" ? { path: `./commands/${args.path.slice(2)}.js`, external: true } : undefined,
    );
  },
};

await build({
  // main.js runs the server; cli.js the operator commands (`npm run invite`).
  entryPoints: [
    "src/main.ts",
    "src/cli.ts",
    ...commandFiles.map((name) => ({ in: `src/cli/${name}`, out: `commands/${name.replace(/\.ts$/, "")}` })),
  ],
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external,
  plugins: [commandsApart],
  logLevel: "warning",
  absWorkingDir: new URL(".", import.meta.url).pathname,
});
