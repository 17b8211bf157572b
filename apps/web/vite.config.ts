import { fileURLToPath, URL } from "node:url";
import tailwindcss from "@tailwindcss/vite";
import react from "@vitejs/plugin-react";
import { defineConfig, type ProxyOptions } from "vite";

const apiServer = process.env.MEMORY_BOX_API ?? "http://127.0.0.1:8080";

// changeOrigin stays false so the API sees the browser's Host (it builds links and cookies from it).
// http-proxy streams responses as they arrive, so SSE events reach the page unbuffered.
const toApi: ProxyOptions = { target: apiServer, changeOrigin: false };

export default defineConfig({
  plugins: [react(), tailwindcss()],
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
