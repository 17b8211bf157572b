import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, URL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import { parse, TYPE } from "@formatjs/icu-messageformat-parser";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { build, defineConfig, type Plugin, type ProxyOptions, type Rolldown } from "vite";
import { VitePWA } from "vite-plugin-pwa";

const apiServer = process.env.MEMORY_BOX_API ?? "http://127.0.0.1:8080";

// changeOrigin stays false so the API sees the browser's Host (it builds links and cookies from it).
// http-proxy streams responses as they arrive, so SSE events reach the page unbuffered.
const toApi: ProxyOptions = { target: apiServer, changeOrigin: false };

/**
 * Brotli and gzip copies of every text file of the build, made once at build time at the highest
 * levels (too slow to do per request), next to the originals: the server sends the one the
 * browser accepts (`@fastify/static`'s `preCompressed`). Tiny files are left alone.
 */
function precompress(): Plugin {
  const compressible = /\.(?:js|mjs|css|html|svg|json|txt|webmanifest)$/;
  const minBytes = 1024;
  return {
    name: "memory-box-precompress",
    apply: "build",
    async writeBundle(options, bundle) {
      const outDir = options.dir ?? "dist";
      await Promise.all(
        Object.keys(bundle)
          .filter((fileName) => compressible.test(fileName))
          .map(async (fileName) => {
            const file = path.join(outDir, fileName);
            const data = await fs.readFile(file);
            if (data.length < minBytes) return;
            const [brotli, gzipped] = await Promise.all([
              promisify(brotliCompress)(data, {
                params: { [zlib.BROTLI_PARAM_QUALITY]: zlib.BROTLI_MAX_QUALITY, [zlib.BROTLI_PARAM_SIZE_HINT]: data.length },
              }),
              promisify(gzip)(data, { level: 9 }),
            ]);
            await Promise.all([fs.writeFile(`${file}.br`, brotli), fs.writeFile(`${file}.gz`, gzipped)]);
          }),
      );
    },
  };
}

/**
 * The message catalogues (packages/messages/catalogue/<locale>/web.json, ADR 0048) arrive in the
 * app already parsed: each ICU message becomes its syntax tree here, at build time, and the built
 * app leaves the ICU parser out (intl-messageformat formats the trees as they are). A message that does
 * not parse fails the build. A message that is plain text stays a string (shorter than its tree,
 * and shown as it is). `only` keeps the messages a smaller bundle needs (the first screen's).
 */
function precompiledMessages(only?: (key: string) => boolean): Plugin {
  const catalogue = /[\\/]packages[\\/]messages[\\/]catalogue[\\/][^\\/]+[\\/]web\.json$/;
  return {
    name: "memory-box-precompiled-messages",
    enforce: "pre",
    config: (_config, { command }) =>
      command === "build"
        ? {
            resolve: {
              alias: [
                { find: /^@formatjs\/icu-messageformat-parser$/, replacement: "@formatjs/icu-messageformat-parser/no-parser.js" },
              ],
            },
          }
        : undefined,
    async load(id) {
      if (!catalogue.test(id)) return undefined;
      const messages = JSON.parse(await fs.readFile(id, "utf8")) as Record<string, string>;
      const trees = Object.fromEntries(
        Object.entries(messages)
          .filter(([key]) => only?.(key) ?? true)
          .map(([key, message]) => {
            try {
              const tree = parse(message);
              return [key, tree.length === 1 && tree[0]!.type === TYPE.literal ? tree[0]!.value : tree];
            } catch (error) {
              throw new Error(`${id}: the message "${key}" is not valid ICU: ${String(error)}`);
            }
          }),
      );
      return JSON.stringify(trees);
    },
  };
}

/** The icons home's first screen shows, by lucide's component name. */
const firstScreenIcons = ["Calendar", "MessageCircle", "Pencil", "Plus", "Search", "Settings", "Trash", "User"] as const;

/**
 * `virtual:first-screen-icons`: the SVG markup of those icons as lucide-react renders them, made
 * here with React's server renderer, so the first screen drawn before React runs shows exactly the
 * icons React will (without shipping React or lucide in its script).
 */
function firstScreenIconMarkup(): Plugin {
  const id = "virtual:first-screen-icons";
  return {
    name: "memory-box-first-screen-icons",
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    async load(resolved) {
      if (resolved !== `\0${id}`) return undefined;
      const [{ createElement }, { renderToStaticMarkup }, icons] = await Promise.all([
        import("react"),
        import("react-dom/server"),
        import("lucide-react"),
      ]);
      // Every use on the first screen hides the icon from assistive technology; the class name
      // each use adds is added to lucide's own by the first screen (paint-home.tsx).
      const markup = Object.fromEntries(
        firstScreenIcons.map((name) => [name, renderToStaticMarkup(createElement(icons[name], { "aria-hidden": "true" }))]),
      );
      return `export const iconMarkup = ${JSON.stringify(markup)};`;
    },
  };
}

const firstScreenEntry = "src/first-screen.ts";

/**
 * The messages home's first screen shows (its script carries only these; the app has them all).
 * A message missing here shows as its id on the painted screen, which the first screen's test
 * (the painted screen against the app's, element by element) refuses.
 */
const firstScreenMessages = /^(?:app|home|memory|onThisDay|time)\./;
const alias = { "@": fileURLToPath(new URL("./src", import.meta.url)) };

const firstScreenDom = (file: string) => fileURLToPath(new URL(`src/app/first-screen/dom/${file}`, import.meta.url));

/**
 * The first script draws home with home's own components (ADR 0039), but without React: there,
 * JSX makes plain element objects (`dom/jsx-runtime.ts`), and React, the router, Radix, lucide and
 * home's components with state are placeholders, each drawn by its substitute (`paint-home.tsx`).
 */
const firstScriptAliases = [
  { find: /^react\/jsx-runtime$/, replacement: firstScreenDom("jsx-runtime.ts") },
  { find: /^react$/, replacement: firstScreenDom("react.ts") },
  { find: /^(?:react-router|radix-ui|lucide-react)$/, replacement: firstScreenDom("libraries.ts") },
  { find: /^@formatjs\/icu-messageformat-parser$/, replacement: "@formatjs/icu-messageformat-parser/no-parser.js" },
  { find: /^@\/features\/memories\/components\/(?:photo-image|memory-card)$/, replacement: firstScreenDom("stateful.ts") },
  { find: "@", replacement: alias["@"] },
];

/**
 * The first screen's script (ADR 0026) is a bundle of its own, built beside the app and sharing
 * no chunk with it: the app's chunks (and so what the sign-in page loads) stay as they are, and
 * the script's own code, the painting, is a chunk it fetches only when it paints. It shares its
 * state with the app through one object on the page (`lib/first-screen.ts`). In the page it comes
 * first and `async`: it runs as soon as it arrives, not after the stylesheet and the app's code.
 */
function firstScreenScript(): Plugin {
  let command: "build" | "serve" = "serve";
  let files: Array<{ fileName: string; source: string; isEntry: boolean }> = [];
  return {
    name: "memory-box-first-screen-script",
    configResolved(config) {
      command = config.command;
    },
    async buildStart() {
      if (command !== "build") return;
      const built = await build({
        configFile: false,
        root: fileURLToPath(new URL(".", import.meta.url)),
        logLevel: "warn",
        plugins: [precompiledMessages((key) => firstScreenMessages.test(key)), firstScreenIconMarkup()],
        resolve: { alias: firstScriptAliases },
        build: {
          write: false,
          copyPublicDir: false,
          modulePreload: false,
          rollupOptions: {
            input: { "first-screen": fileURLToPath(new URL(firstScreenEntry, import.meta.url)) },
            output: { entryFileNames: "assets/[name]-[hash].js", chunkFileNames: "assets/first-screen-[name]-[hash].js" },
          },
        },
      });
      const outputs = (Array.isArray(built) ? built : [built]) as Rolldown.RolldownOutput[];
      files = outputs.flatMap((output) =>
        output.output.flatMap((file) =>
          file.type === "chunk" ? [{ fileName: file.fileName, source: file.code, isEntry: file.isEntry }] : [],
        ),
      );
    },
    generateBundle() {
      for (const { fileName, source } of files) this.emitFile({ type: "asset", fileName, source });
    },
    transformIndexHtml: {
      order: "post",
      handler(html, { bundle }) {
        const entry = files.find((file) => file.isEntry);
        const src = entry ? `/${entry.fileName}` : `/${firstScreenEntry}`;
        const tags = [
          {
            tag: "script",
            attrs: { type: "module", async: true, crossorigin: true, src, "data-first-screen": true },
            injectTo: "head-prepend" as const,
          },
        ];
        if (!bundle) return tags;
        // Built: the app's entry and the modules it imports are named in the page but not fetched
        // by it; the first script fetches and runs them (src/first-screen.ts): at once when it
        // paints nothing, after the first screen's photos when it paints. Over HTTP/1.1 a page
        // gets six connections to its server, and the app's ten files took them from the first
        // screen's requests.
        const appScript = /<script type="module" crossorigin src="(\/assets\/index-[^"]+\.js)"><\/script>/;
        if (!appScript.test(html)) throw new Error("index.html: the app's entry script was not found");
        return {
          html: html
            .replace(appScript, '<meta name="memory-box-app-entry" content="$1">')
            .replace(
              /<link rel="modulepreload" crossorigin href="(\/assets\/[^"]+\.js)">/g,
              '<meta name="memory-box-app-module" content="$1">',
            ),
          tags,
        };
      },
    },
  };
}

/** The page's background token (src/index.css, --background) in light and dark. */
const background = { light: "#fcf9f3", dark: "#18120f" };

/**
 * Installable, with a service worker of our own (src/service-worker/sw.ts, ADR 0031): the plugin
 * writes the manifest and puts the list of the shell's files into the worker. The app registers
 * the worker itself once the page has loaded (`virtual:pwa-register/react`), never before the
 * first screen's script.
 */
function installableApp() {
  return VitePWA({
    strategies: "injectManifest",
    srcDir: "src/service-worker",
    filename: "sw.ts",
    registerType: "prompt",
    injectRegister: false,
    // The icons are in the glob below already; the plugin adds the manifest itself.
    includeManifestIcons: false,
    manifest: {
      name: "Memory Box",
      short_name: "Memory Box",
      description: "A private memory journal.",
      id: "/",
      start_url: "/",
      scope: "/",
      display: "standalone",
      theme_color: background.light,
      background_color: background.light,
      // Photos shared from the phone's gallery open "Add Memory" with them chosen (src/lib/shared-photos.ts).
      share_target: {
        action: "/share",
        method: "POST",
        enctype: "multipart/form-data",
        params: { title: "title", text: "text", files: [{ name: "photos", accept: ["image/*"] }] },
      },
      icons: [
        { src: "/pwa-192x192.png", sizes: "192x192", type: "image/png", purpose: "any" },
        { src: "/pwa-512x512.png", sizes: "512x512", type: "image/png", purpose: "any" },
        { src: "/maskable-512x512.png", sizes: "512x512", type: "image/png", purpose: "maskable" },
      ],
    },
    injectManifest: {
      // The shell: the page, its scripts, styles, fonts and icons; not the .br and .gz copies.
      // The first screen's script (ADR 0026) is among them, so a page started offline still runs it.
      globPatterns: ["**/*.{html,js,css,woff2,svg,png}"],
    },
  });
}

export default defineConfig({
  plugins: [
    precompiledMessages(),
    react(),
    tailwindcss(),
    precompress(),
    firstScreenIconMarkup(),
    firstScreenScript(),
    installableApp(),
  ],
  resolve: { alias },
  build: {
    outDir: "dist",
    emptyOutDir: true,
  },
  server: {
    port: 5173,
    strictPort: true,
    proxy: {
      "/api": toApi,
      // Trailing slash: the bare `/auth` is the app's own sign-in screen, served by Vite like every page.
      "/auth/": toApi,
      "/storage": toApi,
      "/rest": toApi,
    },
  },
});
