import type { FirstRunGuide } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";

describe.each(testEngines())("first-run guide API on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    // The first account of an instance is its owner.
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
  });
  afterAll(() => testApp.close());

  const guideOf = async (member: TestMember) => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/v1/account/guide", headers: member.headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<FirstRunGuide>();
  };
  const change = (member: TestMember, payload: unknown) =>
    testApp.app.inject({ method: "PUT", url: "/api/v1/account/guide", headers: member.headers, payload: payload as object });

  it("needs a signed-in member, and a forged token is not one", async () => {
    for (const headers of [{}, { authorization: "Bearer not-a-token" }, { authorization: `${ann.headers.authorization}x` }]) {
      const read = await testApp.app.inject({ method: "GET", url: "/api/v1/account/guide", headers });
      const put = await testApp.app.inject({
        method: "PUT",
        url: "/api/v1/account/guide",
        headers,
        payload: { dismissed: true },
      });
      expect(read.statusCode).toBe(401);
      expect(put.statusCode).toBe(401);
    }
    expect((await guideOf(ann)).dismissed_at).toBeNull();
  });

  it("shows a new member the guide with their role: the owner's has the invite step, the partner's not", async () => {
    expect(await guideOf(ann)).toEqual({ dismissed_at: null, role: "owner" });
    expect(await guideOf(ben)).toEqual({ dismissed_at: null, role: "member" });
  });

  it("closes only the caller's guide, keeps the first closing, and shows it again on request", async () => {
    const closed = await change(ann, { dismissed: true });
    expect(closed.statusCode, closed.body).toBe(200);
    const first = closed.json<FirstRunGuide>().dismissed_at;
    expect(first).toEqual(expect.any(String));
    expect((await guideOf(ben)).dismissed_at).toBeNull();

    const again = await change(ann, { dismissed: true });
    expect(again.json<FirstRunGuide>().dismissed_at).toBe(first);

    // Ben showing his own again changes nothing of Ann's.
    await change(ben, { dismissed: false });
    expect((await guideOf(ann)).dismissed_at).toBe(first);

    const reset = await change(ann, { dismissed: false });
    expect(reset.json<FirstRunGuide>()).toEqual({ dismissed_at: null, role: "owner" });
  });

  it("takes no member id: naming another member is refused and changes nothing of theirs", async () => {
    await change(ben, { dismissed: true });
    for (const payload of [
      { dismissed: false, user_id: ben.userId },
      { dismissed: false, id: ben.userId },
    ]) {
      const response = await change(ann, payload);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
    }
    expect((await guideOf(ben)).dismissed_at).toEqual(expect.any(String));
    const other = await testApp.app.inject({
      method: "PUT",
      url: `/api/v1/account/guide/${ben.userId}`,
      headers: ann.headers,
      payload: { dismissed: false },
    });
    expect(other.statusCode).toBe(404);
    expect((await guideOf(ben)).dismissed_at).toEqual(expect.any(String));
  });

  it.each([[{}], [{ dismissed: "yes" }], [{ dismissed: null }], [{ dismissed: 1 }], [[]], ["x".repeat(10_000)]])(
    "refuses the body %j with 400 validation_failed and changes nothing",
    async (payload) => {
      const before = await guideOf(ann);
      const response = await testApp.app.inject({
        method: "PUT",
        url: "/api/v1/account/guide",
        headers: { ...ann.headers, "content-type": "application/json" },
        payload: JSON.stringify(payload),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: "validation_failed" });
      expect(await guideOf(ann)).toEqual(before);
    },
  );
});
