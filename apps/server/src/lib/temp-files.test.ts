import { spawn } from "node:child_process";
import { mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ownedTempName, removeLeftoverTempFiles } from "./temp-files";

describe("removeLeftoverTempFiles", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), "memory-box-temp-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  /** A pid that belonged to a process now gone. */
  const deadPid = async () => {
    const child = spawn(process.execPath, ["-e", ""]);
    await new Promise((resolve) => child.on("exit", resolve));
    return child.pid!;
  };

  it("removes a crashed process's files, an earlier process's under this pid, ownerless and day-old ones", async () => {
    const dead = `${await deadPid()}-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d11.upload`;
    const reusedPid = ownedTempName(".upload");
    const ownerless = "0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d12";
    const liveButOld = `${process.ppid}-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d13`;
    const liveInFlight = `${process.ppid}-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d14`;
    for (const name of [dead, reusedPid, ownerless, liveButOld, liveInFlight]) await writeFile(path.join(dir, name), "12345");
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    await utimes(path.join(dir, liveButOld), twoDaysAgo, twoDaysAgo);

    expect(await removeLeftoverTempFiles(dir)).toEqual({ files: 4, bytes: 20 });
    expect(await readdir(dir)).toEqual([liveInFlight]);
  });

  it("keeps another machine's files while they may be in flight: its process ids mean nothing here", async () => {
    // Two containers sharing a DATA_DIR volume, each server running as pid 1, or any two hosts.
    const elsewhereSamePid = ownedTempName(".upload", "another-container");
    const elsewhereDeadPid = ownedTempName(".upload", "another-container").replace(/^\d+/, String(await deadPid()));
    const elsewhereOld = ownedTempName(".upload", "another-container");
    for (const name of [elsewhereSamePid, elsewhereDeadPid, elsewhereOld]) await writeFile(path.join(dir, name), "12345");
    const twoDaysAgo = new Date(Date.now() - 48 * 3600 * 1000);
    await utimes(path.join(dir, elsewhereOld), twoDaysAgo, twoDaysAgo);

    expect(await removeLeftoverTempFiles(dir)).toEqual({ files: 1, bytes: 5 });
    expect((await readdir(dir)).sort()).toEqual([elsewhereSamePid, elsewhereDeadPid].sort());
  });

  it("is content with a folder that does not exist yet", async () => {
    expect(await removeLeftoverTempFiles(path.join(dir, "missing"))).toEqual({ files: 0, bytes: 0 });
  });
});
