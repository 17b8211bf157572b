import { errorCatalogue } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { createMember, type TestMember } from "../../test/members";
import { serviceRoleToken } from "../../test/service-token";
import { createTestApp, type TestApp } from "../../test/test-app";
import { AppError, classifyError } from "../errors";

describe("classifyError", () => {
  const fastifyError = (statusCode: number, code = "FST_ERR_SOMETHING") =>
    Object.assign(new Error("Fastify's words"), { statusCode, code });

  it("keeps our own errors, with the catalogue's status and message unless the thrower gives others", () => {
    const plain = new AppError("memory_not_found");
    expect(classifyError(plain)).toEqual({ error: plain, unexpected: false });
    expect(plain).toMatchObject({ statusCode: 404, message: errorCatalogue.memory_not_found.message });
    expect(new AppError("user_not_found", { status: 403, message: "Gone" })).toMatchObject({ statusCode: 403, message: "Gone" });
  });

  it.each([
    [fastifyError(413), "request_entity_too_large", 413],
    [fastifyError(415), "unsupported_media_type", 415],
    [fastifyError(404), "not_found", 404],
    [fastifyError(405), "method_not_allowed", 405],
    [fastifyError(429), "over_request_rate_limit", 429],
    [fastifyError(400, "FST_ERR_CTP_INVALID_JSON_BODY"), "bad_json", 400],
    [fastifyError(400), "bad_request", 400],
    [fastifyError(431), "bad_request", 431],
  ] as const)("turns a Fastify client error into one code on every API (%#)", (thrown, code, status) => {
    const { error, unexpected } = classifyError(thrown);
    expect(unexpected).toBe(false);
    expect(error).toMatchObject({ code, statusCode: status });
  });

  it("turns a zod failure into validation_failed naming the field", () => {
    const failure = z.object({ email: z.email() }).safeParse({ email: "nope" }).error;
    const { error } = classifyError(failure);
    expect(error).toMatchObject({ code: "validation_failed", statusCode: 400, details: [{ path: "email" }] });
    expect(error.message).toMatch(/^email: /);
  });

  it("turns anything else into a bare unexpected_failure that says nothing of the cause", () => {
    for (const thrown of [new Error("password is hunter2"), "a string", fastifyError(503), null]) {
      const { error, unexpected } = classifyError(thrown);
      expect(unexpected).toBe(true);
      expect(error).toMatchObject({
        code: "unexpected_failure",
        statusCode: 500,
        message: errorCatalogue.unexpected_failure.message,
      });
    }
  });
});

describe("one catalogue entry in each API's envelope", () => {
  let testApp: TestApp;
  let member: TestMember;
  let operator: string;

  beforeAll(async () => {
    testApp = await createTestApp("sqlite", { env: { AUTH_RATE_LIMITS: "false" } });
    member = await createMember(testApp, "ada@example.org");
    operator = `Bearer ${await serviceRoleToken(testApp)}`;
  });
  afterAll(() => testApp.close());

  const huge = JSON.stringify({ title: "x".repeat(2 * 1024 * 1024) });
  const send = (url: string, authorization: string | undefined, payload: string) =>
    testApp.app.inject({
      method: "POST",
      url,
      headers: {
        "content-type": "application/json",
        "x-supabase-api-version": "2024-01-01",
        ...(authorization ? { authorization } : {}),
      },
      payload,
    });

  it("answers a too-large body with request_entity_too_large and malformed JSON with bad_json, on every API", async () => {
    const apis = [
      { url: "/api/v1/memories", authorization: member.headers.authorization },
      { url: "/auth/v1/signup", authorization: undefined },
      { url: "/storage/v1/bucket", authorization: operator },
    ];
    for (const { url, authorization } of apis) {
      const tooLarge = await send(url, authorization, huge);
      expect({ url, status: tooLarge.statusCode, code: tooLarge.json<{ code: string }>().code }).toEqual({
        url,
        status: 413,
        code: "request_entity_too_large",
      });
      const malformed = await send(url, authorization, "{oops");
      expect({ url, status: malformed.statusCode, code: malformed.json<{ code: string }>().code }).toEqual({
        url,
        status: 400,
        code: "bad_json",
      });
    }
  });

  it("wraps the same code and message in the product's, Supabase Auth's and Supabase Storage's envelope", async () => {
    const product = await testApp.app.inject({ method: "GET", url: "/api/v1/memories", headers: { authorization: "Bearer x" } });
    expect(product.json()).toEqual({ code: "bad_jwt", message: expect.any(String) as string });

    const auth = await testApp.app.inject({
      method: "GET",
      url: "/auth/v1/user",
      headers: { authorization: "Bearer x", "x-supabase-api-version": "2024-01-01" },
    });
    expect(auth.statusCode).toBe(403);
    expect(auth.headers["x-supabase-api-version"]).toBe("2024-01-01");
    expect(auth.json()).toEqual({ code: "bad_jwt", message: expect.any(String) as string });
    const legacy = await testApp.app.inject({ method: "GET", url: "/auth/v1/user", headers: { authorization: "Bearer x" } });
    expect(legacy.headers["x-sb-error-code"]).toBe("bad_jwt");
    expect(legacy.json()).toEqual({ code: 403, error_code: "bad_jwt", msg: expect.any(String) as string });

    const storage = await testApp.app.inject({
      method: "GET",
      url: "/storage/v1/bucket/nope",
      headers: { authorization: operator },
    });
    expect(storage.json()).toEqual({ statusCode: "404", error: "not_found", code: "not_found", message: "Bucket not found" });
  });
});
