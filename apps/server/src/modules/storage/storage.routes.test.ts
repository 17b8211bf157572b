import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { serviceRoleToken } from "../../../test/service-token";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { createBlobStore } from "./create-blob-store";

describe.each(testEngines)("bucket management on %s", (engine) => {
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
});
