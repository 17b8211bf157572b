import fs from "node:fs/promises";
import path from "node:path";
import { fileURLToPath, URL } from "node:url";
import { promisify } from "node:util";
import { brotliCompress, constants as zlib, gzip } from "node:zlib";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type Plugin, type ProxyOptions } from "vite";

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

export default defineConfig({
  plugins: [react(), tailwindcss(), precompress()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./src", import.meta.url)) },
  },
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
