import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, "../../../..");

describe("the cli entry point", () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-cli-"));
  });
  afterAll(() => fs.rm(dataDir, { recursive: true, force: true }));

  it("invites an address into a fresh DATA_DIR and lists it", { timeout: 60_000 }, async () => {
    // The SQLite default in DATA_DIR, whatever database the test run itself points at.
    const { DATABASE_URL: _ignored, ...env } = process.env;
    const cli = (...args: string[]) =>
      run("npx", ["tsx", "apps/server/src/cli.ts", "invite", ...args], { cwd: root, env: { ...env, DATA_DIR: dataDir } });

    // execFile rejects on a non-zero exit code, so getting output means the command exited 0.
    const invited = await cli("a@x.org");
    expect(invited.stdout).toBe("Invited a@x.org\n");

    const listed = await cli("--list");
    expect(listed.stdout).toMatch(/^EMAIL .*\na@x\.org /);
  });
});
