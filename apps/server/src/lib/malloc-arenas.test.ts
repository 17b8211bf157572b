import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { mallocArenaAdvice, runningGlibcVersion } from "./malloc-arenas";

describe("the advice on glibc's malloc arenas", () => {
  it("warns on glibc when MALLOC_ARENA_MAX is not set, naming the value to set", () => {
    expect(mallocArenaAdvice({}, () => "2.36")).toMatch(/MALLOC_ARENA_MAX=2/);
    expect(mallocArenaAdvice({ MALLOC_ARENA_MAX: "" }, () => "2.36")).toMatch(/MALLOC_ARENA_MAX=2/);
  });

  it("is quiet once it is set, or where the C library is not glibc", () => {
    expect(mallocArenaAdvice({ MALLOC_ARENA_MAX: "2" }, () => "2.36")).toBeUndefined();
    expect(mallocArenaAdvice({}, () => undefined)).toBeUndefined();
  });

  // Debian (CI's machine) runs on glibc; elsewhere (macOS, musl) there is nothing to read.
  it.runIf(existsSync("/etc/debian_version"))("reads glibc's version from the running process on Debian", () => {
    expect(runningGlibcVersion()).toMatch(/^2\.\d+$/);
  });
});
