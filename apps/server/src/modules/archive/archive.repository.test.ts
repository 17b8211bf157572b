import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { turnsDuring } from "../../../test/event-loop-turns";
import { memoryRow } from "../../../test/memory-rows";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { ArchiveRepository } from "./archive.repository";

// An import checks every memory of an archive against those already here, hundreds of queries
// for a lifetime's archive, inside the running server (Settings → Import): the server must go
// on answering between them (issue #37).

describe.each(testEngines())("ArchiveRepository on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let repository: ArchiveRepository;
  const kept = memoryRow({ title: "Already here" });

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    repository = new ArchiveRepository(database.db, database.engine);
    await database.db.insertInto("memories").values(kept).execute();
  });
  afterAll(async () => {
    await database?.close();
  });

  it("finds the memories already here among thousands of ids, giving the event loop turns meanwhile", async () => {
    const ids = [...Array.from({ length: 3_000 }, () => randomUUID()), kept.id];
    const { result: found, turns } = await turnsDuring(() => repository.existingMemoryIds(ids));
    expect([...found]).toEqual([kept.id]);
    // Seven queries of 500 ids: a turn after each, none at all on SQLite without them.
    expect(turns).toBeGreaterThanOrEqual(6);
  });
});
