import { createHash } from "node:crypto";
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

/** One message's ICU syntax tree, or its text when it has no placeholders (shorter, and shown as it is). */
function parsedMessage(file: string, key: string, message: string) {
  try {
    const tree = parse(message);
    return tree.length === 1 && tree[0]!.type === TYPE.literal ? tree[0]!.value : tree;
  } catch (error) {
    throw new Error(`${file}: the message "${key}" is not valid ICU: ${String(error)}`);
  }
}

/**
 * The message catalogues (packages/messages/catalogue/<locale>/web.json, ADR 0048) arrive in the
 * app already parsed: each ICU message becomes its syntax tree here, at build time, and the built
 * app leaves the ICU parser out (intl-messageformat formats the trees as they are). A message that does
 * not parse fails the build. A message that is plain text stays a string (shorter than its tree,
 * and shown as it is). This is what development and the tests load; the built app loads the
 * catalogue in parts (`catalogueParts` below).
 */
function precompiledMessages(): Plugin {
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
      return JSON.stringify(
        Object.fromEntries(Object.entries(messages).map(([key, message]) => [key, parsedMessage(id, key, message)])),
      );
    },
  };
}

const catalogueRoot = fileURLToPath(new URL("../../packages/messages/catalogue", import.meta.url));
/** Any file of the catalogue (the web's, the server's), as a module id of the build. */
const catalogueFile = /[\\/]packages[\\/]messages[\\/]catalogue[\\/].+\.json$/;

/**
 * The messages home's first screen shows (its script carries only these; the app has them all).
 * A message missing here shows as its id on the painted screen, which the first screen's test
 * (the painted screen against the app's, element by element) refuses.
 */
const firstScreenMessages = /^(?:app|home|memory|onThisDay|time)\./;

/**
 * The parts the built app loads the catalogue in, by message id (the first that matches; the rest
 * are `screens`), so that a page carries the messages of its screens and not all ~440 (issue 30):
 * - `shell`: the sign-in screen and what every screen may show (errors, the update prompt, the
 *   offline banner, toasts, dialogs' buttons), loaded in the member's language before the app is
 *   drawn (English's too: the app's entry carries no message). The build fails when a message the
 *   entry's code names is not in it (`catalogueInParts`).
 * - `first`: home's first screen (ADR 0039), loaded by the first screen's script and by the member
 *   screens, one file per language for both, so it is fetched once.
 * - `screens`: what the member screens share (home's), loaded with their layout.
 * - `settings`: the settings screens and the set-password page, loaded with them.
 * - `memory`: a memory's page, its photo viewer and the shared-photos page, loaded with them.
 * - `book`: a year (or range, or tag) as a print-ready book, loaded with it.
 * Every part is a file of its own per language, fetched when a screen needs it
 * (apps/web/src/lib/catalogue.ts) in the member's language only.
 */
const catalogueParts: ReadonlyArray<{ part: string; ids: RegExp }> = [
  {
    part: "shell",
    ids: /^(?:auth|recovery\.(?:secondStep|form|api)|passkeys\.problem|secondStep|signUp|invitation|passwordRule|linkError|wallet|api|error|nav|notFound|update|offline|common|toast)\./,
  },
  { part: "first", ids: firstScreenMessages },
  {
    part: "settings",
    ids: /^(?:settings|account|devices|members|invite|recovery|setPassword|import|changeEmail|connected|fresh|passkeys|secondFactors|sso|notifications|unsubscribe|oauthConsent|apps|frames?|device)\./,
  },
  { part: "memory", ids: /^(?:comments|problem|viewer|share)\./ },
  { part: "book", ids: /^book\./ },
];
const otherPart = "screens";

/**
 * The parts each route's screen has loaded when it shows (app/router.tsx: the shell always, the
 * member layout `first` and `screens`, a route its own); the build fails when the route's code,
 * or the code it loads on demand, names a message of another part.
 */
const memberParts = ["shell", "first", "screens"];
const routeModule = /[\\/]src[\\/]app[\\/]routes[\\/][^\\/]+\.tsx$/;
const routeParts: Record<string, readonly string[]> = {
  auth: ["shell"],
  "member-layout": memberParts,
  home: memberParts,
  "add-shared": [...memberParts, "memory"],
  "memory-detail": [...memberParts, "memory"],
  "photo-viewer": [...memberParts, "memory"],
  settings: [...memberParts, "settings"],
  "settings-account": [...memberParts, "settings"],
  "settings-members": [...memberParts, "settings"],
  "settings-notifications": [...memberParts, "settings"],
  "settings-apps": [...memberParts, "settings"],
  unsubscribe: ["shell", "settings"],
  "set-password": ["shell", "settings"],
  "oauth-consent": ["shell", "settings"],
  frame: ["shell", "settings"],
  device: [...memberParts, "settings"],
  "settings-frames": [...memberParts, "settings"],
  places: memberParts,
  book: [...memberParts, "book"],
};
/** Components the entry loads on demand, outside any route (a lazy piece of the guard), by path under src/: their parts, as routeParts. */
const lazyComponentParts: Record<string, readonly string[]> = {
  "features/auth/components/second-factor-step": ["shell"],
};
const partOf = (key: string) => catalogueParts.find(({ ids }) => ids.test(key))?.part ?? otherPart;

interface CatalogueFiles {
  /** Each language's parts, as the URL of its file. */
  urls: Record<string, Record<string, string>>;
  files: Array<{ fileName: string; source: string }>;
}

let catalogueFilesBuilt: Promise<CatalogueFiles> | undefined;

const readCatalogue = async (file: string) =>
  JSON.parse(await fs.readFile(file, "utf8").catch(() => "null")) as Record<string, string> | null;

/**
 * Every language's web catalogue, parsed and cut into its parts, once per build (both bundles share
 * the files). A message a language lacks is English's, filled in here: English stays the fallback
 * of a missing translation without any language carrying English's messages (and without a
 * fallback at run time). The catalogue check (packages/messages/src/catalogue.test.ts) refuses a
 * missing message in CI, so a complete catalogue fills in nothing; the build says what it filled.
 */
function catalogueFiles(base: string): Promise<CatalogueFiles> {
  catalogueFilesBuilt ??= (async () => {
    const locales = (await fs.readdir(catalogueRoot, { withFileTypes: true }))
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name)
      .sort();
    const englishFile = path.join(catalogueRoot, "en", "web.json");
    const english = await readCatalogue(englishFile);
    if (!english) throw new Error(`${englishFile}: English's web catalogue is missing`);
    const result: CatalogueFiles = { urls: {}, files: [] };
    for (const locale of locales) {
      const file = path.join(catalogueRoot, locale, "web.json");
      const messages = await readCatalogue(file);
      if (!messages) continue;
      const parts = new Map<string, Record<string, unknown>>();
      const filled: string[] = [];
      // English's ids, in English's order: the app names no other (its ids are typed from English).
      for (const key of Object.keys(english)) {
        const own = Object.hasOwn(messages, key);
        if (!own) filled.push(key);
        const part = partOf(key);
        if (!parts.has(part)) parts.set(part, {});
        parts.get(part)![key] = own ? parsedMessage(file, key, messages[key]!) : parsedMessage(englishFile, key, english[key]!);
      }
      if (filled.length > 0)
        console.warn(`${locale}/web.json lacks ${filled.length} message(s), shown in English: ${filled.join(", ")}`);
      result.urls[locale] = {};
      for (const [part, parsed] of parts) {
        // JSON.parse of a string: faster for the browser than an object literal of the same size.
        const source = `export default JSON.parse(${JSON.stringify(JSON.stringify(parsed))});\n`;
        const hash = createHash("sha256").update(source).digest("base64url").slice(0, 8);
        const fileName = `assets/messages-${locale}-${part}-${hash}.js`;
        result.files.push({ fileName, source });
        result.urls[locale][part] = `${base}${fileName}`;
      }
    }
    return result;
  })();
  return catalogueFilesBuilt;
}

/**
 * In the built app and the first screen's script, `@memory-box/messages/web` loads the catalogue
 * in its parts (`catalogueParts`): neither bundle carries a message (`bundledWebMessages` is empty,
 * so no language pays for another's, English's included); every part is fetched by
 * `loadWebMessages(locale, parts)` from its own file, the same file for both bundles. In the app's
 * build, the messages named by the code of the entry (what `/auth` loads) must all be in `shell`,
 * which main.tsx loads before the app is drawn, and the entry must import no catalogue: the build
 * fails otherwise.
 */
function catalogueInParts(bundle: "app" | "first-screen"): Plugin {
  const id = "\0memory-box-web-messages";
  let base = "/";
  return {
    name: "memory-box-catalogue-in-parts",
    apply: "build",
    enforce: "pre",
    configResolved(config) {
      base = config.base;
    },
    resolveId: (source) => (source === "@memory-box/messages/web" ? id : undefined),
    async load(resolved) {
      if (resolved !== id) return undefined;
      const { urls } = await catalogueFiles(base);
      return `const urls = ${JSON.stringify(urls)};
export const webCatalogueLocales = Object.keys(urls);
export const bundledWebMessages = {};
export const webMessageParts = ${JSON.stringify([...catalogueParts.map(({ part }) => part), otherPart])};
export async function loadWebMessages(locale, parts = webMessageParts) {
  const files = urls[locale] ?? urls.en;
  const loaded = await Promise.all(
    parts.map((part) => (files[part] ? import(/* @vite-ignore */ files[part]).then((module) => module.default) : {})),
  );
  return Object.assign({}, ...loaded);
}
`;
    },
    async generateBundle(_options, output) {
      if (bundle !== "app") return;
      const { files } = await catalogueFiles(base);
      for (const { fileName, source } of files) this.emitFile({ type: "asset", fileName, source });
      const english = JSON.parse(await fs.readFile(path.join(catalogueRoot, "en", "web.json"), "utf8")) as Record<string, string>;
      /** The messages named by a chunk's code and the code it imports (and, with `dynamic`, loads later) that are not in `parts`. */
      const outside = (fileName: string, parts: readonly string[], dynamic: boolean) => {
        const seen = new Set<string>();
        const missing = new Set<string>();
        const visit = (name: string) => {
          if (seen.has(name)) return;
          seen.add(name);
          const chunk = output[name];
          if (chunk?.type !== "chunk") return;
          // Another route's screen brings its own parts.
          if (name !== fileName && routeModule.test(chunk.facadeModuleId ?? "")) return;
          for (const literal of chunk.code.matchAll(/["'`]([a-zA-Z]+(?:\.[a-zA-Z0-9]+)+)["'`]/g))
            if (Object.hasOwn(english, literal[1]!) && !parts.includes(partOf(literal[1]!))) missing.add(literal[1]!);
          for (const imported of dynamic ? [...chunk.imports, ...chunk.dynamicImports] : chunk.imports) visit(imported);
        };
        visit(fileName);
        return [...missing];
      };
      // The messages the entry's code names (what /auth runs) must be in the shell part, which is
      // loaded in the member's language before the app is drawn (main.tsx).
      const entry = Object.values(output).find((file) => file.type === "chunk" && file.isEntry && file.name === "index");
      if (!entry || entry.type !== "chunk") return;
      const missing = outside(entry.fileName, ["shell"], false);
      if (missing.length > 0)
        this.error(
          `The app's entry shows messages that are not in the catalogue's shell part (catalogueParts in vite.config.ts): ${missing.join(", ")}`,
        );
      // And it carries no catalogue: a language's messages come from its own files, so that no
      // language's first load pays for another's (a catalogue imported by the entry's code would).
      const carried = new Set<string>();
      const staticGraph = (name: string, seen = new Set<string>()): Set<string> => {
        const chunk = output[name];
        if (seen.has(name) || chunk?.type !== "chunk") return seen;
        seen.add(name);
        for (const imported of chunk.imports) staticGraph(imported, seen);
        return seen;
      };
      for (const name of staticGraph(entry.fileName)) {
        const chunk = output[name];
        if (chunk?.type !== "chunk") continue;
        for (const id of chunk.moduleIds) if (catalogueFile.test(id)) carried.add(path.relative(catalogueRoot, id));
      }
      if (carried.size > 0)
        this.error(
          `The app's entry carries message catalogues (${[...carried].join(", ")}): load them in parts (@memory-box/messages/web's loadWebMessages)`,
        );
      // A route's screen, and what it loads on demand (its dialogs), shows only the parts it loads (app/router.tsx).
      const screens = [
        ...Object.entries(routeParts).map(([module, parts]) => [`app/routes/${module}`, parts] as const),
        ...Object.entries(lazyComponentParts),
      ];
      for (const [module, parts] of screens) {
        const chunk = Object.values(output).find(
          (file) => file.type === "chunk" && file.facadeModuleId?.replaceAll("\\", "/").endsWith(`/src/${module}.tsx`),
        );
        if (!chunk) this.error(`routeParts in vite.config.ts: no chunk for src/${module}.tsx`);
        const notLoaded = outside(chunk.fileName, parts, true);
        if (notLoaded.length > 0)
          this.error(
            `The screen src/${module} shows messages of parts it does not load (routeParts in vite.config.ts, needMessages in app/router.tsx): ${notLoaded.join(", ")}`,
          );
      }
    },
  };
}

/** The icons home's first screen shows, by lucide's component name. */
const firstScreenIcons = [
  "Calendar",
  "CircleAlert",
  "MapPin",
  "MessageCircle",
  "Pencil",
  "Play",
  "Plus",
  "Search",
  "Settings",
  "Trash",
  "User",
] as const;

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
        plugins: [catalogueInParts("first-screen"), precompiledMessages(), firstScreenIconMarkup()],
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
      // Photos and videos shared from the phone's gallery open "Add Memory" with them chosen (src/lib/shared-photos.ts).
      share_target: {
        action: "/share",
        method: "POST",
        enctype: "multipart/form-data",
        params: {
          title: "title",
          text: "text",
          files: [{ name: "photos", accept: ["image/*", "video/mp4", "video/quicktime", "video/webm"] }],
        },
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
      // The map's files (`map-…`) are listed too, the atlas among them, so that the worker knows
      // the current ones; it keeps them out of the precache (src/lib/offline-map.ts).
      globPatterns: ["**/*.{html,js,css,woff2,svg,png}", "assets/map-*.json"],
    },
  });
}

/**
 * The map's code and data (issue #32, ADR 0057): MapLibre, its worker, its stylesheet and the
 * Natural Earth atlas, loaded only by the screens that draw a map. Their files are named `map-…`,
 * so that the service worker leaves them out of the precache every device downloads and keeps
 * them once a map has fetched them (src/lib/offline-map.ts). The worker is MapLibre's ES module,
 * named `.js` so that every server sends it as JavaScript.
 */
const mapModule =
  /[\\/](?:node_modules[\\/](?:maplibre-gl|@maplibre|topojson-client|world-atlas)[\\/]|src[\\/]features[\\/]places[\\/]map[\\/]map-engine\.ts$)/;
const mapFileNames = {
  // Any other chunk whose name starts so (the picker's `map-picker.tsx`) is named apart: it is the
  // app's own, precached like the rest.
  chunkFileNames: (chunk: Rolldown.PreRenderedChunk) =>
    chunk.moduleIds.some((id) => mapModule.test(id))
      ? "assets/map-[name]-[hash].js"
      : chunk.name.startsWith("map-")
        ? "assets/place-[name]-[hash].js"
        : "assets/[name]-[hash].js",
  assetFileNames: (asset: Rolldown.PreRenderedAsset) => {
    if (!asset.originalFileNames.some((name) => mapModule.test(name)) && !asset.names.some((name) => name.startsWith("map-")))
      return "assets/[name]-[hash][extname]";
    return asset.names.some((name) => name.endsWith(".mjs"))
      ? "assets/map-[name]-[hash].js"
      : "assets/map-[name]-[hash][extname]";
  },
};

export default defineConfig({
  plugins: [
    catalogueInParts("app"),
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
    rollupOptions: { output: mapFileNames },
    // MapLibre is one module of ~1 MB (~240 KB compressed), loaded only where a map is drawn.
    chunkSizeWarningLimit: 1_100,
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
