import { defineConfig } from "vitest/config";

export default defineConfig({ test: { name: "messages", environment: "node", include: ["src/**/*.test.ts"] } });
