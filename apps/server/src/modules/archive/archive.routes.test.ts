import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import type { ExportLink } from "@memory-box/contract";
import yauzl from "yauzl";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { TestClock } from "../../../test/auth-fixtures";

// "Download everything": a member asks for a one-minute link, and the browser downloads the
// archive from it. Every way to the download without a live member session is refused.

describe("downloading the archive", () => {
  let testApp: TestApp;
  let ann: TestMember;
  const clock = new TestClock();

  beforeAll(async () => {
    testApp = await createTestApp("sqlite", { env: { AUTH_RATE_LIMITS: "false" }, now: clock.now });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    const created = await testApp.app.inject({
      method: "POST",
      url: "/api/v1/memories",
      headers: ann.headers,
      payload: { title: "Lake day" },
    });
    expect(created.statusCode).toBe(201);
  });
  afterAll(async () => {
    await testApp?.close();
  });

  const askForLink = async (member: TestMember) => {
    const response = await testApp.app.inject({ method: "POST", url: "/api/v1/account/export", headers: member.headers });
    expect(response.statusCode).toBe(200);
    return response.json<ExportLink>();
  };

  it("gives a member a one-minute link that downloads the whole archive as a ZIP", async () => {
    const link = await askForLink(ann);
    expect(link.url).toMatch(/^\/api\/v1\/account\/export\?ticket=/);
    expect(link.expires_at - Math.floor(clock.now().getTime() / 1000)).toBe(60);

    const download = await testApp.app.inject({ method: "GET", url: link.url });
    expect(download.statusCode).toBe(200);
    expect(download.headers["content-type"]).toBe("application/zip");
    expect(download.headers["content-disposition"]).toMatch(/^attachment; filename="memory-box-\d{4}-\d{2}-\d{2}\.zip"$/);
    expect(download.headers["cache-control"]).toBe("no-store");

    const file = path.join(await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-download-")), "archive.zip");
    await fs.writeFile(file, download.rawPayload);
    const names = await new Promise<string[]>((resolve, reject) =>
      yauzl.open(file, (error, zip) => {
        if (error) return reject(error);
        const found: string[] = [];
        zip.on("entry", (entry: yauzl.Entry) => found.push(entry.fileName));
        zip.on("end", () => resolve(found));
      }),
    );
    expect(names).toEqual(expect.arrayContaining(["memory-box.json", "index.html"]));
  });

  it("refuses a download without a ticket, with a forged, expired or photo ticket, and after sign-out", async () => {
    expect((await testApp.app.inject({ method: "GET", url: "/api/v1/account/export" })).statusCode).toBe(401);
    expect((await testApp.app.inject({ method: "POST", url: "/api/v1/account/export" })).statusCode).toBe(401);

    const link = await askForLink(ann);
    const ticket = new URL(link.url, "http://x").searchParams.get("ticket")!;
    const [session, expires] = ticket.split(".");
    const forged = `${session}.${Number(expires) + 3600}.${ticket.split(".")[2]}`;
    expect((await testApp.app.inject({ method: "GET", url: `/api/v1/account/export?ticket=${forged}` })).statusCode).toBe(401);

    // A photo access cookie's value is the same shape, signed for another purpose: it opens no download.
    const photoCookie = await testApp.app.inject({ method: "POST", url: "/api/v1/photo-access", headers: ann.headers });
    const cookieValue = /memory-box-photos=([^;]+)/.exec(String(photoCookie.headers["set-cookie"]))?.[1];
    expect(cookieValue).toBeTruthy();
    expect((await testApp.app.inject({ method: "GET", url: `/api/v1/account/export?ticket=${cookieValue}` })).statusCode).toBe(
      401,
    );

    clock.advance(61);
    expect((await testApp.app.inject({ method: "GET", url: link.url })).statusCode).toBe(401);

    const fresh = await askForLink(ann);
    await testApp.app.inject({ method: "POST", url: "/auth/v1/logout", headers: ann.headers });
    const afterSignOut = await testApp.app.inject({ method: "GET", url: fresh.url });
    expect(afterSignOut.statusCode).toBe(401);
    expect(afterSignOut.json()).toMatchObject({ code: "session_not_found" });
  });
});
