// Bundles the server into dist/ with esbuild. npm dependencies stay external (native modules
// such as better-sqlite3 and sharp cannot be bundled); workspace packages are bundled in,
// because they ship TypeScript source.
import { readFile } from "node:fs/promises";
import { build } from "esbuild";

const manifest = JSON.parse(await readFile(new URL("./package.json", import.meta.url), "utf8"));
const external = Object.keys(manifest.dependencies ?? {}).filter((name) => !name.startsWith("@memory-box/"));

await build({
  // main.js runs the server; cli.js the operator commands (`npm run invite`).
  entryPoints: ["src/main.ts", "src/cli.ts"],
  outdir: "dist",
  bundle: true,
  platform: "node",
  format: "esm",
  target: "node20",
  sourcemap: true,
  external,
  logLevel: "warning",
  absWorkingDir: new URL(".", import.meta.url).pathname,
});
