import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { serviceRoleToken } from "../../../test/service-token";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { createBlobStore } from "./create-blob-store";

describe.each(testEngines())("bucket management on %s", (engine) => {
  let testApp: TestApp;
  let operator: { authorization: string };
  let member: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    operator = { authorization: `Bearer ${await serviceRoleToken(testApp)}` };
    member = await createMember(testApp, "ann@memory-box.test");
  });
  afterAll(() => testApp.close());

  const call = (method: "GET" | "POST" | "PUT" | "DELETE", url: string, headers: Record<string, string>, payload?: object) =>
    testApp.app.inject({ method, url, headers, ...(payload ? { payload } : {}) });

  it("is for operators only", async () => {
    const anonymous = await call("GET", "/storage/v1/bucket", {});
    expect(anonymous.statusCode).toBe(401);
    expect(anonymous.json()).toMatchObject({ statusCode: "401", code: "not_authenticated" });
    const asMember = await call("GET", "/storage/v1/bucket", member.headers);
    expect(asMember.statusCode).toBe(403);
    expect(asMember.json()).toMatchObject({ code: "not_admin" });
  });

  it("takes the admin API's one service-role check: a token bound to a session works only while that session lives", async () => {
    const auth = (url: string, headers: Record<string, string>, payload: object) =>
      testApp.app.inject({
        method: "POST",
        url: `/auth/v1${url}`,
        headers: { ...headers, "x-supabase-api-version": "2024-01-01" },
        payload,
      });
    const promoted = await createMember(testApp, "operator-by-role@memory-box.test");
    const update = await testApp.app.inject({
      method: "PUT",
      url: `/auth/v1/admin/users/${promoted.userId}`,
      headers: operator,
      payload: { role: "service_role" },
    });
    expect(update.statusCode).toBe(200);
    const signIn = await auth("/token?grant_type=password", {}, { email: promoted.email, password: "correct horse battery" });
    const headers = { authorization: `Bearer ${signIn.json<{ access_token: string }>().access_token}` };
    expect((await call("GET", "/storage/v1/bucket", headers)).statusCode).toBe(200);

    expect((await auth("/logout", headers, {})).statusCode).toBe(204);
    const afterSignOut = await call("GET", "/storage/v1/bucket", headers);
    expect(afterSignOut.statusCode).toBe(403);
    expect(afterSignOut.json()).toMatchObject({ code: "session_not_found" });
  });

  it("has the private photo bucket from the first start", async () => {
    const response = await call("GET", "/storage/v1/bucket/memory-photos", operator);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ id: "memory-photos", name: "memory-photos", public: false });
    const photos = await call("PUT", "/storage/v1/bucket/memory-photos", operator, { public: true });
    expect(photos.statusCode).toBe(400);
    expect((await call("DELETE", "/storage/v1/bucket/memory-photos", operator)).statusCode).toBe(400);
  });

  it("creates, lists, updates, empties and deletes a bucket as Supabase Storage does", async () => {
    expect(
      (await call("POST", "/storage/v1/bucket", operator, { name: "exports", public: false, file_size_limit: 1024 })).json(),
    ).toEqual({ name: "exports" });
    expect((await call("POST", "/storage/v1/bucket", operator, { name: "exports" })).statusCode).toBe(409);
    expect((await call("POST", "/storage/v1/bucket", operator, { name: "../etc" })).statusCode).toBe(400);
    expect((await call("GET", "/storage/v1/bucket", operator)).json<{ name: string }[]>().map((bucket) => bucket.name)).toEqual([
      "exports",
      "memory-photos",
    ]);
    expect((await call("PUT", "/storage/v1/bucket/exports", operator, { allowed_mime_types: ["image/png"] })).json()).toEqual({
      message: "Successfully updated",
    });
    expect((await call("GET", "/storage/v1/bucket/exports", operator)).json()).toMatchObject({
      allowed_mime_types: ["image/png"],
      file_size_limit: 1024,
    });

    const store = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    await store.put("exports/2026/a.zip", Buffer.from("zip"));
    const notEmpty = await call("DELETE", "/storage/v1/bucket/exports", operator);
    expect(notEmpty.statusCode).toBe(409);
    expect((await call("POST", "/storage/v1/bucket/exports/empty", operator)).json()).toEqual({
      message: "Successfully emptied",
    });
    expect(await store.stat("exports/2026/a.zip")).toBeNull();
    await store.close();
    expect((await call("DELETE", "/storage/v1/bucket/exports", operator)).json()).toEqual({ message: "Successfully deleted" });
    const gone = await call("GET", "/storage/v1/bucket/exports", operator);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toMatchObject({ statusCode: "404", error: "not_found" });
  });
  it("takes the service-role token from the apikey header through the same check, never from the query string", async () => {
    const token = operator.authorization.slice("Bearer ".length);
    expect((await call("GET", "/storage/v1/bucket", { apikey: token })).statusCode).toBe(200);
    const memberKey = await call("GET", "/storage/v1/bucket", { apikey: member.accessToken });
    expect(memberKey.statusCode).toBe(403);
    expect(memberKey.json()).toMatchObject({ code: "not_admin" });
    expect((await call("GET", "/storage/v1/bucket", { apikey: "not-a-token" })).statusCode).toBe(403);
    const inQuery = await call("GET", `/storage/v1/bucket?apikey=${token}`, {});
    expect(inQuery.statusCode).toBe(401);
  });

  it("reads file_size_limit as a number of bytes or digits with a decimal unit, on create and update", async () => {
    const cases: [unknown, number][] = [
      [1024, 1024],
      ["1024", 1024],
      ["20mb", 20_000_000],
      ["1kb", 1000],
      ["1 GB", 1_000_000_000],
      ["512B", 512],
    ];
    for (const [index, [given, bytes]] of cases.entries()) {
      const name = `sizes-${index}`;
      const created = await call("POST", "/storage/v1/bucket", operator, { name, file_size_limit: given });
      expect(created.statusCode, `${String(given)}: ${created.body}`).toBe(200);
      expect((await call("GET", `/storage/v1/bucket/${name}`, operator)).json()).toMatchObject({ file_size_limit: bytes });
      const updated = await call("PUT", `/storage/v1/bucket/${name}`, operator, { file_size_limit: given });
      expect(updated.statusCode).toBe(200);
      expect((await call("GET", `/storage/v1/bucket/${name}`, operator)).json()).toMatchObject({ file_size_limit: bytes });
    }
    for (const given of ["20 megabytes", "1.5mb", "-1", "0", "", "3gb", 1.5, 0, true]) {
      for (const [method, url] of [
        ["POST", "/storage/v1/bucket"],
        ["PUT", "/storage/v1/bucket/sizes-0"],
      ] as const) {
        const refused = await call(method, url, operator, { name: "never-made", file_size_limit: given });
        expect(refused.statusCode, `${method} ${String(given)}`).toBe(400);
        expect(refused.json<{ message: string }>().message).toContain("file_size_limit");
      }
    }
    expect((await call("GET", "/storage/v1/bucket/never-made", operator)).statusCode).toBe(404);
    expect((await call("GET", "/storage/v1/bucket/sizes-0", operator)).json()).toMatchObject({ file_size_limit: 1024 });
  });

  it("lists buckets by limit, offset, part of the name and any sort column or order", async () => {
    for (const name of ["list-c", "list-a", "list-b", "other-x"]) {
      expect((await call("POST", "/storage/v1/bucket", operator, { name })).statusCode).toBe(200);
      // Distinct creation times, for the sort by created_at.
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const names = async (query: string) =>
      (await call("GET", `/storage/v1/bucket${query}`, operator)).json<{ name: string }[]>().map((bucket) => bucket.name);
    expect(await names("?search=LIST-")).toEqual(["list-a", "list-b", "list-c"]);
    expect(await names("?search=list-&sortOrder=desc")).toEqual(["list-c", "list-b", "list-a"]);
    expect(await names("?search=list-&sortColumn=created_at&sortOrder=asc")).toEqual(["list-c", "list-a", "list-b"]);
    expect(await names("?search=list-&sortColumn=created_at&sortOrder=desc")).toEqual(["list-b", "list-a", "list-c"]);
    expect(await names("?search=list-&limit=2&offset=1")).toEqual(["list-b", "list-c"]);
    expect(await names("?search=list-&offset=2")).toEqual(["list-c"]);
    expect(await names("?search=%25")).toEqual([]);
    for (const query of ["?limit=0", "?limit=x", "?offset=-1", "?sortColumn=owner", "?sortOrder=up"]) {
      const refused = await call("GET", `/storage/v1/bucket${query}`, operator);
      expect(refused.statusCode, query).toBe(400);
    }
  });

  it("keeps public as a stored flag that serves nothing: no object is ever fetched unsigned", async () => {
    expect((await call("POST", "/storage/v1/bucket", operator, { name: "said-public", public: true })).statusCode).toBe(200);
    expect((await call("GET", "/storage/v1/bucket/said-public", operator)).json()).toMatchObject({ public: true });
    expect((await call("POST", "/storage/v1/bucket", operator, { name: "made-public" })).statusCode).toBe(200);
    expect((await call("PUT", "/storage/v1/bucket/made-public", operator, { public: true })).statusCode).toBe(200);
    const blobs = createBlobStore(testApp.config.storageUrl, testApp.config.dataDir);
    try {
      for (const bucket of ["said-public", "made-public"]) {
        await blobs.put(`${bucket}/hello.txt`, Buffer.from("not for everyone"), { contentType: "text/plain" });
        for (const url of [
          `/storage/v1/object/public/${bucket}/hello.txt`,
          `/storage/v1/object/${bucket}/hello.txt`,
          `/storage/v1/object/authenticated/${bucket}/hello.txt`,
        ]) {
          const unsigned = await testApp.app.inject({ method: "GET", url });
          expect(unsigned.statusCode, url).toBeGreaterThanOrEqual(400);
          expect(unsigned.body).not.toContain("not for everyone");
        }
      }
    } finally {
      await blobs.close();
    }
    const photos = await call("PUT", "/storage/v1/bucket/memory-photos", operator, { public: true });
    expect(photos.statusCode).toBe(400);
    expect(photos.json()).toMatchObject({ code: "photos_stay_private" });
  });
});
