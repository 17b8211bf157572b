import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AuthTestServer, confirmedMember, password, startAuthServer, uniqueEmail } from "../auth-fixtures";
import { testEngines } from "../test-database";

// Security suite, cross-site family: another web site's page, which the member's browser sends
// this site's cookies from only as SameSite allows, can neither fill the Add Memory form (issue #29
// item 6, ADR 0044) nor change anything with the cookies this site sets. Only two cookies exist:
// the photo access cookie (ADR 0018) and the sign-up's browser binding (ADR 0014); neither is a
// session, and every write asks for the bearer token, which no other site's page can send.

const boundary = "----share";
const photoForm = [
  `--${boundary}`,
  'Content-Disposition: form-data; name="photos"; filename="planted.png"',
  "Content-Type: image/png",
  "",
  "not really a png",
  `--${boundary}--`,
  "",
].join("\r\n");

describe.each(testEngines())("requests from another site, on %s", (engine) => {
  let server: AuthTestServer;
  let member: Awaited<ReturnType<typeof confirmedMember>>;

  beforeAll(async () => {
    server = await startAuthServer(engine);
    member = await confirmedMember(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it("#29.6 another site's form posted to /share: 403 share_from_another_site, and nothing is kept", async () => {
    const posts: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site", origin: "https://evil.example", referer: "https://evil.example/" },
      { "sec-fetch-site": "cross-site", origin: "null" },
      { "sec-fetch-site": "same-site", origin: "https://photos.evil.example" },
      { origin: "https://evil.example" },
      { referer: "https://evil.example/page" },
    ];
    for (const extra of posts) {
      const response = await server.app.inject({
        method: "POST",
        url: "/share",
        payload: photoForm,
        headers: { "content-type": `multipart/form-data; boundary=${boundary}`, ...extra },
      });
      expect({ extra, status: response.statusCode, code: response.json<{ code?: string }>().code }).toEqual({
        extra,
        status: 403,
        code: "share_from_another_site",
      });
    }
    // The share sheet's own post still opens the app.
    const sheet = await server.app.inject({
      method: "POST",
      url: "/share",
      payload: photoForm,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, "sec-fetch-site": "none", origin: "null" },
    });
    expect(sheet.statusCode).toBe(303);
  });

  /** The cookie a response set, as a browser would send it back, and its attributes. */
  function cookieOf(setCookie: string | string[] | undefined, name: string) {
    const line = [setCookie ?? []].flat().find((entry) => entry.startsWith(`${name}=`));
    if (!line) throw new Error(`No ${name} cookie in ${JSON.stringify(setCookie)}`);
    const [pair = "", ...attributes] = line.split(";").map((part) => part.trim());
    return { pair, attributes: attributes.map((attribute) => attribute.toLowerCase()) };
  }

  it("#checklist CSRF: the photo cookie is SameSite=Strict and HttpOnly, and opens no write and no read of the API", async () => {
    const granted = await server.app.inject({
      method: "POST",
      url: "/api/v1/photo-access",
      headers: { authorization: `Bearer ${member.session.access_token}` },
    });
    expect(granted.statusCode).toBe(200);
    const { pair, attributes } = cookieOf(granted.headers["set-cookie"], "memory-box-photos");
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "samesite=strict"]));
    expect(attributes.find((attribute) => attribute.startsWith("path="))).toMatch(/^path=\/storage\/v1\/object\//);

    const withCookieOnly = { cookie: pair };
    const tries = [
      { method: "POST", url: "/api/v1/memories", payload: { title: "Planted", body: "by another site" } },
      { method: "GET", url: "/api/v1/memories" },
      { method: "POST", url: "/api/v1/photo-access" },
      { method: "PUT", url: "/auth/v1/user", payload: { password: "another site's passphrase" } },
      { method: "POST", url: "/auth/v1/logout?scope=global" },
    ] as const;
    for (const attempt of tries) {
      const response = await server.app.inject({ ...attempt, headers: withCookieOnly });
      expect({ url: attempt.url, status: response.statusCode }).toEqual({ url: attempt.url, status: 401 });
    }
  });

  it("#checklist CSRF: the sign-up cookie is SameSite=Lax, HttpOnly and kept to /auth/v1, and is no session", async () => {
    const email = uniqueEmail("signup");
    await server.invite(email);
    const signUp = await server.app.inject({
      method: "POST",
      url: "/auth/v1/signup",
      headers: { "x-supabase-api-version": "2024-01-01" },
      payload: { email, password },
    });
    expect(signUp.statusCode, signUp.body).toBe(200);
    const { pair, attributes } = cookieOf(signUp.headers["set-cookie"], "memory-box-signup");
    expect(attributes).toEqual(expect.arrayContaining(["httponly", "samesite=lax", "path=/auth/v1"]));
    for (const attempt of [
      { method: "GET", url: "/auth/v1/user" },
      { method: "PUT", url: "/auth/v1/user", payload: { password: "another site's passphrase" } },
      { method: "GET", url: "/api/v1/memories" },
    ] as const) {
      const response = await server.app.inject({ ...attempt, headers: { cookie: pair, "x-supabase-api-version": "2024-01-01" } });
      expect({ url: attempt.url, status: response.statusCode }).toEqual({ url: attempt.url, status: 401 });
    }
  });
});
