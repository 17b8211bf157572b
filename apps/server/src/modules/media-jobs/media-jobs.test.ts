import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { photoRow } from "../../../test/photo-rows";
import { openMigratedTestDatabase, testEngines } from "../../../test/test-database";
import { MediaJobError, type MediaJobHandler, type MediaJobProgress, MediaJobRunner, MediaJobsRepository } from ".";

// The durable queue media work runs on (issue #31, ADR 0054): each job runs once, never on two
// runners at once, survives a runner that dies mid-job or a restart, retries and then fails.

const leaseMs = 200;
const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 4000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await sleep(10);
  }
}

describe.each(testEngines())("media jobs on %s", (engine) => {
  let database: Awaited<ReturnType<typeof openMigratedTestDatabase>>;
  let repository: MediaJobsRepository;
  const runners: MediaJobRunner[] = [];
  let kindNumber = 0;
  // Each test its own kind, so no runner of one test takes another's jobs.
  const newKind = () => `test-kind-${(kindNumber += 1)}`;
  const runner = (kind: string, handler: MediaJobHandler, options: ConstructorParameters<typeof MediaJobRunner>[1] = {}) => {
    const created = new MediaJobRunner(repository, { leaseMs, pollMs: 20, backoffMs: () => 10, ...options }).register(
      kind,
      handler,
    );
    runners.push(created);
    return created;
  };
  const stateOf = async (id: string) => (await repository.find(id))?.state;

  beforeAll(async () => {
    database = await openMigratedTestDatabase(engine);
    repository = new MediaJobsRepository(database.db);
  });
  // A test's runners stop with it, so no earlier test's polling slows a later one.
  afterEach(async () => {
    await Promise.all(runners.splice(0).map((each) => each.stop({ abandon: true })));
  });
  afterAll(() => database.close());

  it("runs a job once, records it done and reports its progress", async () => {
    const kind = newKind();
    const seen: MediaJobProgress[] = [];
    let calls = 0;
    const jobs = runner(
      kind,
      async ({ progress }) => {
        calls += 1;
        await progress(0.5);
      },
      { onProgress: (event) => seen.push(event) },
    );
    jobs.start();
    const job = await jobs.enqueue(kind, "video-1");
    await until(async () => (await stateOf(job.id)) === "done");
    await sleep(60);
    expect(calls).toBe(1);
    expect(await repository.find(job.id)).toMatchObject({ state: "done", progress: 1, attempts: 1, lease_owner: null });
    expect(seen.map((event) => [event.state, event.progress])).toEqual([
      ["queued", 0],
      ["running", 0],
      ["running", 0.5],
      ["done", 1],
    ]);
    expect(seen[0]).toMatchObject({ jobId: job.id, subjectId: "video-1", kind });
  });

  it("never lets two runners take the same job, even claiming at the same moment", async () => {
    const kind = newKind();
    const ids = await Promise.all(
      [1, 2, 3].map(async (n) => (await repository.enqueue(kind, `v${n}`, new Date().toISOString())).id),
    );
    const now = new Date().toISOString();
    const leaseEnd = new Date(Date.now() + 60_000).toISOString();
    const claims = await Promise.all(Array.from({ length: 8 }, (_, n) => repository.claim([kind], `owner-${n}`, now, leaseEnd)));
    const taken = claims.filter((claim) => claim !== undefined).map((claim) => claim.id);
    expect(taken.sort()).toEqual([...ids].sort());

    const kind2 = newKind();
    const runs = new Map<string, number>();
    const active = new Set<string>();
    let overlap = false;
    const handler: MediaJobHandler = async ({ job }) => {
      if (active.has(job.id)) overlap = true;
      active.add(job.id);
      runs.set(job.id, (runs.get(job.id) ?? 0) + 1);
      await sleep(30);
      active.delete(job.id);
    };
    const first = runner(kind2, handler, { concurrency: 2 });
    const second = runner(kind2, handler, { concurrency: 2 });
    const jobs = await Promise.all([1, 2, 3, 4, 5, 6].map((n) => repository.enqueue(kind2, `w${n}`, new Date().toISOString())));
    first.start();
    second.start();
    await until(async () => (await Promise.all(jobs.map((job) => stateOf(job.id)))).every((state) => state === "done"));
    expect(overlap).toBe(false);
    expect([...runs.values()]).toEqual([1, 1, 1, 1, 1, 1]);
  });

  it.runIf(engine === "postgres")("skips a job another process is claiming instead of waiting for it", async () => {
    const kind = newKind();
    const first = await repository.enqueue(kind, "x1", new Date(Date.now() - 2).toISOString());
    const second = await repository.enqueue(kind, "x2", new Date(Date.now() - 1).toISOString());
    const now = new Date().toISOString();
    const leaseEnd = new Date(Date.now() + 60_000).toISOString();
    await database.db.transaction().execute(async (trx) => {
      // The first claim's transaction holds its row while another connection claims.
      const held = await new MediaJobsRepository(trx).claim([kind], "slow-process", now, leaseEnd);
      expect(held?.id).toBe(first.id);
      const other = await Promise.race([
        repository.claim([kind], "other-process", now, leaseEnd),
        sleep(1000).then(() => "still waiting" as const),
      ]);
      expect(other === "still waiting" ? other : other?.id).toBe(second.id);
    });
  });

  it("gives the job of a runner that died mid-job to another once its lease expires", async () => {
    const kind = newKind();
    const job = await repository.enqueue(kind, "video-2", new Date().toISOString());
    // A runner that claims and is then killed: nothing renews its lease and nothing finishes the job.
    const dead = await repository.claim([kind], "killed", new Date().toISOString(), new Date(Date.now() + leaseMs).toISOString());
    const takenAt: number[] = [];
    const survivor = runner(kind, async () => {
      takenAt.push(Date.now());
    });
    survivor.start();
    await until(async () => (await stateOf(job.id)) === "done");
    expect(takenAt).toHaveLength(1);
    expect(takenAt[0]).toBeGreaterThanOrEqual(Date.parse(dead!.lease_until!));
    expect((await repository.find(job.id))?.attempts).toBe(2);
  });

  it("keeps a slow job's lease while it works, so no other runner takes it", async () => {
    const kind = newKind();
    let calls = 0;
    const slow = runner(kind, async () => {
      calls += 1;
      await sleep(leaseMs * 2);
    });
    slow.start();
    const job = await slow.enqueue(kind, "video-3");
    await until(() => slow.active === 1);
    // Another runner looking all along never takes it: the lease is renewed without any progress.
    const other = runner(kind, async () => {
      calls += 1;
    });
    other.start();
    await until(async () => (await stateOf(job.id)) === "done");
    expect(calls).toBe(1);
    expect((await repository.find(job.id))?.attempts).toBe(1);
  });

  it("stops a handler whose lease another runner took, and leaves that runner's job alone", async () => {
    const kind = newKind();
    let aborted = false;
    const jobs = runner(kind, async ({ signal }) => {
      await new Promise<void>((resolve) => signal.addEventListener("abort", () => resolve()));
      aborted = true;
      throw new MediaJobError("too_late");
    });
    jobs.start();
    const job = await jobs.enqueue(kind, "video-9");
    await until(() => jobs.active === 1);
    // As if the lease had expired during a stall and another runner had claimed the job, with a
    // lease of its own (one that ran out meanwhile would let this runner claim the job back).
    await database.db
      .updateTable("media_jobs")
      .set({ lease_owner: "newcomer", lease_until: "2099-01-01T00:00:00.000Z" })
      .where("id", "=", job.id)
      .execute();
    await until(() => aborted && jobs.active === 0);
    expect(await repository.find(job.id)).toMatchObject({ state: "running", lease_owner: "newcomer", error_code: null });
  });

  it("retries a failing job after a backoff, then fails it with its error code", async () => {
    const kind = newKind();
    let calls = 0;
    const failing = runner(
      kind,
      async () => {
        calls += 1;
        throw new MediaJobError("ffmpeg_failed");
      },
      { maxAttempts: 3 },
    );
    failing.start();
    const job = await failing.enqueue(kind, "video-4");
    await until(async () => (await stateOf(job.id)) === "failed");
    await sleep(60);
    expect(calls).toBe(3);
    expect(await repository.find(job.id)).toMatchObject({ state: "failed", attempts: 3, error_code: "ffmpeg_failed" });
  });

  it("fails for good a job whose runners keep dying", async () => {
    const kind = newKind();
    const job = await repository.enqueue(kind, "video-5", new Date().toISOString());
    for (const owner of ["killed-1", "killed-2"]) {
      const past = new Date(Date.now() - 1000).toISOString();
      await repository.claim([kind], owner, new Date().toISOString(), past);
    }
    let calls = 0;
    const jobs = runner(
      kind,
      async () => {
        calls += 1;
      },
      { maxAttempts: 2 },
    );
    jobs.start();
    await until(async () => (await stateOf(job.id)) === "failed");
    expect(calls).toBe(0);
    expect(await repository.find(job.id)).toMatchObject({ error_code: "abandoned", attempts: 3 });
  });

  it("prunes done and failed jobs last changed before a time, and never a queued or running one", async () => {
    const kind = newKind();
    const old = "2026-01-01T00:00:00.000Z";
    const jobs = await Promise.all(
      ["queued", "running", "done", "failed", "done"].map((_, i) => repository.enqueue(kind, `video-p${i}`, old)),
    );
    const states = ["queued", "running", "done", "failed", "done"] as const;
    for (const [i, job] of jobs.entries()) {
      // The last one finished recently: it stays.
      const updatedAt = i === 4 ? "2026-01-09T00:00:00.000Z" : old;
      await database.db
        .updateTable("media_jobs")
        .set({ state: states[i]!, updated_at: updatedAt })
        .where("id", "=", job.id)
        .execute();
    }
    expect(await repository.pruneFinished("2026-01-08T00:00:00.000Z")).toBe(2);
    expect(await Promise.all(jobs.map((job) => stateOf(job.id)))).toEqual(["queued", "running", undefined, undefined, "done"]);
  });

  it("after a restore queues again at once what was running (its cut attempt not counted) and gives a job to a video waiting without one", async () => {
    const kind = newKind();
    const running = await repository.enqueue(kind, "video-r1", "2026-01-01T00:00:00.000Z");
    await database.db
      .updateTable("media_jobs")
      .set({ state: "running", attempts: 3, lease_owner: "gone", lease_until: "2099-01-01T00:00:00.000Z" })
      .where("id", "=", running.id)
      .execute();
    const now = "2026-02-01T00:00:00.000Z";
    // Videos waiting for their copy: one with a queued job (left as it is), one whose job had ended.
    const video = (key: string) => photoRow(key, { kind: "video", status: "processing", web_key: `${key}.web.mp4` });
    const [queuedVideo, jobless] = [video("u/1-queued"), video("u/2-jobless")];
    await database.db.insertInto("photos").values([queuedVideo, jobless]).execute();
    const queued = await repository.enqueue(kind, queuedVideo.id, "2026-01-01T00:00:00.000Z");
    const ended = await repository.enqueue(kind, jobless.id, "2026-01-01T00:00:00.000Z");
    await database.db.updateTable("media_jobs").set({ state: "failed" }).where("id", "=", ended.id).execute();

    const result = await repository.requeueAfterRestore(kind, now);
    expect(result.requeued).toBeGreaterThanOrEqual(1);
    expect(result.enqueued).toBe(1);
    expect((await repository.forSubject(queuedVideo.id)).map((job) => [job.id, job.state])).toEqual([[queued.id, "queued"]]);
    expect((await repository.forSubject(jobless.id)).map((job) => [job.state, job.kind, job.run_after])).toEqual([
      ["failed", kind, "2026-01-01T00:00:00.000Z"],
      ["queued", kind, now],
    ]);
    expect(await repository.find(running.id)).toMatchObject({
      state: "queued",
      attempts: 2,
      lease_owner: null,
      lease_until: null,
      run_after: now,
    });
  });

  it("runs one job at a time by default", async () => {
    const kind = newKind();
    let active = 0;
    let most = 0;
    const order: string[] = [];
    const jobs = runner(kind, async ({ job }) => {
      active += 1;
      most = Math.max(most, active);
      order.push(job.subject_id);
      await sleep(20);
      active -= 1;
    });
    for (const n of [1, 2, 3]) {
      await repository.enqueue(kind, `clip-${n}`, new Date(Date.now() + n).toISOString());
    }
    jobs.start();
    await until(() => order.length === 3 && active === 0);
    expect(most).toBe(1);
    expect(order).toEqual(["clip-1", "clip-2", "clip-3"]);
  });

  it("after a restart runs the queued jobs, and again the ones a stop abandoned", async () => {
    const kind = newKind();
    let started = 0;
    const before = runner(kind, async ({ signal }) => {
      started += 1;
      await new Promise((resolve) => signal.addEventListener("abort", resolve));
    });
    before.start();
    const abandoned = await before.enqueue(kind, "video-6");
    await until(() => started === 1);
    const queued = await repository.enqueue(kind, "video-7", new Date().toISOString());
    await before.stop({ abandon: true });
    expect(await stateOf(abandoned.id)).toBe("running");
    expect(await stateOf(queued.id)).toBe("queued");

    const ran: string[] = [];
    const after = runner(kind, async ({ job }) => {
      ran.push(job.subject_id);
    });
    after.start();
    await until(async () => (await stateOf(abandoned.id)) === "done" && (await stateOf(queued.id)) === "done");
    expect(ran.sort()).toEqual(["video-6", "video-7"]);
  });

  it("waits for running handlers when stopped without abandoning them", async () => {
    const kind = newKind();
    const jobs = runner(kind, () => sleep(50));
    jobs.start();
    const job = await jobs.enqueue(kind, "video-8");
    await until(() => jobs.active === 1);
    await jobs.stop();
    expect(await stateOf(job.id)).toBe("done");
  });
});
