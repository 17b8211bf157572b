import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { openDatabase } from "../../db/database";
import { MediaJobsRepository } from ".";

// Finished media jobs are not kept for ever: the server's hourly sweep (run at start too) removes
// those done or failed more than a week ago, and leaves every other.

describe.each(testEngines())("the media jobs sweep on %s", (engine) => {
  let first: TestApp;
  beforeAll(async () => {
    first = await createTestApp(engine);
  });
  afterAll(() => first.close());

  it("removes jobs done or failed more than a week ago when the server starts, and keeps the rest", async () => {
    const database = openDatabase(first.config.database);
    const repository = new MediaJobsRepository(database.db);
    const day = 24 * 3600_000;
    const ago = (days: number) => new Date(Date.now() - days * day).toISOString();
    const jobs: Record<string, string> = {};
    try {
      for (const [name, state, updatedAt] of [
        ["old done", "done", ago(8)],
        ["old failed", "failed", ago(30)],
        ["recent done", "done", ago(6)],
        ["old queued", "queued", ago(30)],
      ] as const) {
        const job = await repository.enqueue("test.sweep", name, ago(40));
        await database.db.updateTable("media_jobs").set({ state, updated_at: updatedAt }).where("id", "=", job.id).execute();
        jobs[name] = job.id;
      }
      // Another server starting on the same database sweeps at once.
      const second = await createTestApp(engine, { sharedDatabase: first.config.database });
      try {
        await second.app.ready();
        const deadline = Date.now() + 5000;
        while ((await repository.find(jobs["old done"]!)) !== undefined) {
          if (Date.now() > deadline) throw new Error("the sweep did not run");
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      } finally {
        await second.close();
      }
      const left = await database.db.selectFrom("media_jobs").select("subject_id").where("kind", "=", "test.sweep").execute();
      expect(left.map((job) => job.subject_id).sort()).toEqual(["old queued", "recent done"]);
    } finally {
      await database.destroy();
    }
  });
});
