import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ImportResult, MemoryPage } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dayOnePhoto, momentLine, tinyJpeg, writeDayOneExport, writeZip } from "../../../test/dayone-export";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";

// "Import" in the account area: owners only, the archive as the request body, all of it or
// nothing. Every way in without an owner's live session is refused and changes nothing.

describe("importing through the API", () => {
  let testApp: TestApp;
  let ann: TestMember;
  let bob: TestMember;
  let workDir: string;
  let journal: Buffer;

  beforeAll(async () => {
    testApp = await createTestApp("sqlite", { env: { AUTH_RATE_LIMITS: "false" } });
    // The first member of an instance is its owner.
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    bob = await createMember(testApp, "bob@memory-box.test", "Bob");
    workDir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-import-api-"));
    const photo = dayOnePhoto(await tinyJpeg());
    const file = path.join(workDir, "Export.zip");
    await writeDayOneExport(file, {
      "Journal.json": [
        {
          creationDate: "2021-06-01T18:30:00Z",
          text: `Lisbon at last\n${momentLine(photo)}\nTrams and tiles.`,
          tags: ["travel"],
          photos: [photo],
        },
        { creationDate: "2019-02-10T08:00:00Z", text: "A quiet Sunday" },
      ],
    });
    journal = await fs.readFile(file);
  });
  afterAll(async () => {
    await testApp?.close();
    await fs.rm(workDir, { recursive: true, force: true });
  });

  const send = (headers: Record<string, string>, body: Buffer, from = "dayone") =>
    testApp.app.inject({
      method: "POST",
      url: `/api/v1/account/import?from=${from}`,
      headers: { ...headers, "content-type": "application/zip" },
      payload: body,
    });

  const memoryCount = async () =>
    (await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: ann.headers })).json<MemoryPage>().total;

  it("refuses anyone but an owner with a live session, and changes nothing", async () => {
    const before = await memoryCount();
    expect((await send({}, journal)).statusCode).toBe(401);
    expect((await send({ authorization: "Bearer not-a-token" }, journal)).statusCode).toBe(401);
    const member = await send(bob.headers, journal);
    expect(member.statusCode).toBe(403);
    expect(member.json()).toMatchObject({ code: "owner_only" });
    expect(
      (await testApp.app.inject({ method: "GET", url: "/api/v1/account/import/progress", headers: bob.headers })).statusCode,
    ).toBe(403);
    expect((await testApp.app.inject({ method: "GET", url: "/api/v1/account/import/progress" })).statusCode).toBe(401);
    expect(await memoryCount()).toBe(before);
  });

  it("brings a Day One journal in as the owner's memories, and a second time changes nothing", async () => {
    const first = await send(ann.headers, journal);
    expect(first.statusCode).toBe(200);
    expect(first.json<ImportResult>()).toEqual({ memories: 2, photos: 1, videos: 0, already_here: 0 });

    const list = (await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: bob.headers })).json<MemoryPage>();
    const lisbon = list.items.find((memory) => memory.title === "Lisbon at last")!;
    expect(lisbon).toMatchObject({
      content: "Trams and tiles.",
      memory_date: "2021-06-01",
      tags: ["travel"],
      user_id: ann.userId,
      profiles: { display_name: "Ann" },
    });
    expect(lisbon.photos).toHaveLength(1);

    const again = await send(ann.headers, journal);
    expect(again.json<ImportResult>()).toEqual({ memories: 0, photos: 0, videos: 0, already_here: 2 });
    const progress = await testApp.app.inject({ method: "GET", url: "/api/v1/account/import/progress", headers: ann.headers });
    expect(progress.json()).toBeNull();
  });

  it("takes the archive over a real connection too (the body reaches the route as the socket's stream)", async () => {
    const address = await testApp.app.listen({ port: 0, host: "127.0.0.1" });
    const response = await fetch(`${address}/api/v1/account/import?from=dayone`, {
      method: "POST",
      headers: { ...ann.headers, "content-type": "application/zip" },
      body: new Uint8Array(journal),
    });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ memories: 0, photos: 0, videos: 0, already_here: 2 });
  });

  it("says in words why an archive is refused", async () => {
    const foreign = path.join(workDir, "foreign.zip");
    await writeZip(foreign, [["notes.txt", "hello"]]);
    const before = await memoryCount();
    const response = await send(ann.headers, await fs.readFile(foreign), "memory-box");
    expect(response.statusCode).toBe(422);
    expect(response.json<{ code: string; message: string }>()).toMatchObject({ code: "archive_refused" });
    expect(response.json<{ message: string }>().message).toBe("This is not a Memory Box archive: it has no memory-box.json.");
    // In the language the owner's browser asks for, with the same code.
    const german = await send({ ...ann.headers, "accept-language": "de" }, await fs.readFile(foreign), "memory-box");
    expect(german.json()).toEqual({
      code: "archive_refused",
      message: "Das ist kein Archiv aus Memory Box: Es fehlt die Datei memory-box.json.",
    });
    const notZip = await send(ann.headers, Buffer.from("not a zip at all"), "memory-box");
    expect(notZip.json<{ message: string }>().message).toMatch(/it is not a ZIP file, or it is incomplete/);
    expect(await memoryCount()).toBe(before);
  });

  it("leaves no uploaded archive behind in the upload folder", async () => {
    const uploads = await fs.readdir(path.join(testApp.config.dataDir, "uploads")).catch(() => []);
    expect(uploads).toEqual([]);
  });
});
