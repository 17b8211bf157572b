import { freshModuleFiles, webProject } from "./vitest.config.ts";

/** The web tests that need a module graph of their own per file (see `freshModuleFiles`). */
export default webProject({ name: "web-fresh", include: freshModuleFiles, exclude: [], isolate: true });
