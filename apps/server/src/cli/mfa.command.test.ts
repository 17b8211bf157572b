import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { openMigratedTestDatabase, testEngines } from "../../test/test-database";
import { type Config, type DatabaseConfig, loadConfig } from "../config";
import type { DatabaseHandle } from "../db/database";
import { clearInvitationData, insertMemberWithSession } from "../modules/invitations/test-helpers";
import { UsageError } from "./command";
import { mfaCommand } from "./mfa.command";

describe.each(testEngines())("the mfa command on %s", (engine) => {
  let database: DatabaseHandle & { config: DatabaseConfig; close(): Promise<void> };
  let config: Config;
  let dataDir: string;
  let lines: string[];

  const mfa = (...args: string[]) => mfaCommand.run({ args, db: database.db, out: (line) => lines.push(line), config });

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    dataDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-mfa-"));
    config = { ...loadConfig({ DATA_DIR: dataDir, PUBLIC_URL: "https://memories.example.org" }), database: database.config };
  });
  afterAll(async () => {
    await database.close();
    await fs.rm(dataDir, { recursive: true, force: true });
  });
  beforeEach(async () => {
    await database.db.deleteFrom("mfa_factors").execute();
    await clearInvitationData(database.db);
    lines = [];
  });

  it("removes every authenticator app of the account, lowers its sessions to aal1 and tells the member", async () => {
    const { userId, sessionId } = await insertMemberWithSession(database.db, "ann@example.org");
    const now = new Date().toISOString();
    const factor = {
      user_id: userId,
      factor_type: "totp" as const,
      secret: "JBSWY3DPEHPK3PXP",
      created_at: now,
      updated_at: now,
    };
    await database.db
      .insertInto("mfa_factors")
      .values([
        {
          ...factor,
          id: "6f1b2c3d-0000-4000-8000-000000000001",
          friendly_name: "Phone",
          status: "verified",
          last_challenged_at: null,
        },
        {
          ...factor,
          id: "6f1b2c3d-0000-4000-8000-000000000002",
          friendly_name: "",
          status: "unverified",
          last_challenged_at: null,
        },
      ])
      .execute();
    await database.db
      .updateTable("users")
      .set({ mfa_factors: JSON.stringify([{ id: "6f1b2c3d-0000-4000-8000-000000000001", status: "verified" }]) })
      .execute();
    await database.db.updateTable("sessions").set({ aal: "aal2" }).execute();

    await mfa("--reset", "Ann@Example.org");

    expect(lines).toEqual(["Removed 2 authenticator apps of ann@example.org; signing in needs only the password again."]);
    expect(await database.db.selectFrom("mfa_factors").selectAll().execute()).toEqual([]);
    const user = await database.db.selectFrom("users").select("mfa_factors").where("id", "=", userId).executeTakeFirstOrThrow();
    expect(user.mfa_factors).toBe("[]");
    const session = await database.db.selectFrom("sessions").select("aal").where("id", "=", sessionId).executeTakeFirstOrThrow();
    expect(session.aal).toBe("aal1");
    await expect.poll(async () => (await fs.readdir(path.join(dataDir, "outbox")).catch(() => [])).length).toBe(1);
  });

  it("says so when there is nothing to remove, and refuses unknown addresses and missing arguments", async () => {
    await insertMemberWithSession(database.db, "ben@example.org");
    await mfa("--reset", "ben@example.org");
    expect(lines).toEqual(["ben@example.org has no authenticator app; nothing to do."]);
    await expect(mfa("--reset", "nobody@example.org")).rejects.toThrow("No account uses nobody@example.org.");
    await expect(mfa()).rejects.toBeInstanceOf(UsageError);
    await expect(mfa("--reset", "a@x.org", "b@y.org")).rejects.toBeInstanceOf(UsageError);
  });
});
