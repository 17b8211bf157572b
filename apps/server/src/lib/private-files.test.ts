import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPrivateFiles, keepDataPrivate } from "./private-files";

// Another user of the machine must not read the database (authenticator secrets), the photos or
// the outbox (#29 item 10). POSIX modes: meaningless where the tests run as a user that ignores
// them, but the modes themselves are what is checked.

const modeOf = (target: string) => fs.statSync(target).mode & 0o777;

describe("private files", () => {
  let root: string;
  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "memory-box-private-"));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it("closes DATA_DIR, a storage folder and a backup folder elsewhere, and the database's files, that an older version left open", () => {
    const dataDir = path.join(root, "data");
    const storage = path.join(root, "photos");
    const backups = path.join(root, "backups");
    for (const folder of [dataDir, storage, backups]) fs.mkdirSync(folder, { mode: 0o755 });
    const database = path.join(dataDir, "memory-box.sqlite");
    for (const file of [database, `${database}-wal`]) fs.writeFileSync(file, "", { mode: 0o644 });
    fs.chmodSync(dataDir, 0o755);

    keepDataPrivate({
      dataDir,
      database: { engine: "sqlite", file: database },
      storageUrl: `file://${storage}`,
      backups: { dir: backups, schedule: "off", keep: 7 },
    });

    expect([dataDir, storage, backups].map(modeOf)).toEqual([0o700, 0o700, 0o700]);
    expect([database, `${database}-wal`].map(modeOf)).toEqual([0o600, 0o600]);
  });

  it("makes a DATA_DIR that is not there yet closed from the start", () => {
    const dataDir = path.join(root, "new", "data");
    keepDataPrivate({
      dataDir,
      database: { engine: "postgres", url: "postgres://localhost/unused" },
      storageUrl: undefined,
      backups: { dir: undefined, schedule: "off", keep: 7 },
    } as never);
    expect(modeOf(dataDir)).toBe(0o700);
  });

  it("creates every later file readable by this user only", () => {
    const before = process.umask();
    try {
      createPrivateFiles();
      const file = path.join(root, "outbox-mail.eml");
      fs.writeFileSync(file, "private");
      fs.mkdirSync(path.join(root, "uploads"));
      expect(modeOf(file)).toBe(0o600);
      expect(modeOf(path.join(root, "uploads"))).toBe(0o700);
    } finally {
      process.umask(before);
    }
  });
});
