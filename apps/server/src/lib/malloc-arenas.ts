/**
 * glibc's malloc gives each thread that allocates an arena of its own (up to eight per core), and
 * photos are decoded and resized on libuv's worker threads: each arena keeps the high-water mark of
 * the images it held, so a long-running server's memory saws ever higher (the soak, issue #37:
 * +15 % in 30 minutes, none of it JavaScript objects). `MALLOC_ARENA_MAX=2` bounds that; it must be
 * in the environment before the process starts, which `npm start` does and a service manager is told
 * to (docs/operating.md). Elsewhere (musl, macOS, Windows) there is nothing to set.
 */
export const recommendedMallocArenas = "2";

/**
 * A warning for the log when the process runs on glibc without its arenas bounded, else undefined.
 * The C library is asked only when the variable is missing (Node's report is not free to make).
 */
export function mallocArenaAdvice(env: NodeJS.ProcessEnv, glibcVersion: () => string | undefined): string | undefined {
  if (env.MALLOC_ARENA_MAX || glibcVersion() === undefined) return undefined;
  return `MALLOC_ARENA_MAX is not set: photo processing will grow this process's memory over days. Start it with MALLOC_ARENA_MAX=${recommendedMallocArenas} (npm start does; docs/operating.md, "Running it").`;
}

/** The C library's glibc version when the process runs on glibc (Node's own report knows). */
export function runningGlibcVersion(): string | undefined {
  const header = (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header;
  return header?.glibcVersionRuntime;
}
