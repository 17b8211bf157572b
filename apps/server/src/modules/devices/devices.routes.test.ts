import type { DeviceList } from "@memory-box/contract";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createMember, memberPassword, type TestMember } from "../../../test/members";
import { createTestApp, type TestApp } from "../../../test/test-app";
import { testEngines } from "../../../test/test-database";
import { describeUserAgent } from "../auth";

const phone =
  "Mozilla/5.0 (Linux; Android 15; Pixel 9) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36";
const laptop = "Mozilla/5.0 (Macintosh; Intel Mac OS X 10.15; rv:133.0) Gecko/20100101 Firefox/133.0";

describe("describeUserAgent", () => {
  it.each([
    [phone, { browser: "Chrome 131", system: "Android 15" }],
    [laptop, { browser: "Firefox 133", system: "macOS" }],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 18_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.2 Mobile/15E148 Safari/604.1",
      { browser: "Safari 18", system: "iOS 18.2" },
    ],
    ["curl/8.5.0", { browser: null, system: null }],
    [null, { browser: null, system: null }],
  ])("reads %s", (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toEqual(expected);
  });
});

describe.each(testEngines())("devices API on %s", (engine) => {
  let testApp: TestApp;
  let ann: TestMember;
  let ben: TestMember;

  beforeAll(async () => {
    testApp = await createTestApp(engine, { env: { AUTH_RATE_LIMITS: "false" } });
    ann = await createMember(testApp, "ann@memory-box.test", "Ann");
    ben = await createMember(testApp, "ben@memory-box.test", "Ben");
  });
  afterAll(() => testApp.close());

  const signIn = async (email: string, userAgent: string) => {
    const response = await testApp.app.inject({
      method: "POST",
      url: "/auth/v1/token?grant_type=password",
      headers: { "user-agent": userAgent },
      payload: { email, password: memberPassword },
    });
    expect(response.statusCode, response.body).toBe(200);
    return { authorization: `Bearer ${response.json<{ access_token: string }>().access_token}` };
  };
  const devicesOf = async (headers: { authorization: string }) => {
    const response = await testApp.app.inject({ method: "GET", url: "/api/v1/account/devices", headers });
    expect(response.statusCode, response.body).toBe(200);
    return response.json<DeviceList>().devices;
  };
  const signOutDevice = (headers: { authorization: string }, id: string) =>
    testApp.app.inject({ method: "DELETE", url: `/api/v1/account/devices/${id}`, headers });
  const stillIn = async (headers: { authorization: string }) =>
    (await testApp.app.inject({ method: "GET", url: "/api/v1/account/devices", headers })).statusCode === 200;

  it("needs a signed-in member", async () => {
    for (const [method, url] of [
      ["GET", "/api/v1/account/devices"],
      ["DELETE", "/api/v1/account/devices/6f1b2c3d-0000-4000-8000-000000000000"],
    ] as const) {
      const response = await testApp.app.inject({ method, url });
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ code: "not_authenticated" });
    }
  });

  it("lists the caller's devices, this one first, and signs one out at once", async () => {
    const onPhone = await signIn(ann.email, phone);
    const onLaptop = await signIn(ann.email, laptop);

    const seenFromPhone = await devicesOf(onPhone);
    expect(seenFromPhone).toHaveLength(3);
    expect(seenFromPhone[0]).toMatchObject({ current: true, browser: "Chrome 131", system: "Android 15" });
    expect(seenFromPhone.filter((device) => device.current)).toHaveLength(1);
    const laptopDevice = seenFromPhone.find((device) => device.browser === "Firefox 133")!;
    expect(laptopDevice).toMatchObject({ current: false, system: "macOS" });
    expect(laptopDevice.signed_in_at).toEqual(expect.any(String));

    const signedOut = await signOutDevice(onPhone, laptopDevice.id);
    expect(signedOut.statusCode, signedOut.body).toBe(204);
    expect(await stillIn(onLaptop)).toBe(false);
    expect(await stillIn(onPhone)).toBe(true);
    expect((await devicesOf(onPhone)).map((device) => device.id)).not.toContain(laptopDevice.id);

    const again = await signOutDevice(onPhone, laptopDevice.id);
    expect(again.statusCode).toBe(404);
    expect(again.json()).toMatchObject({ code: "device_not_found" });
  });

  it("never shows or ends another member's devices", async () => {
    const bensDevices = await devicesOf(ben.headers);
    const bens = bensDevices[0]!;
    expect((await devicesOf(ann.headers)).map((device) => device.id)).not.toContain(bens.id);

    const attempt = await signOutDevice(ann.headers, bens.id);
    expect(attempt.statusCode).toBe(404);
    expect(attempt.json()).toMatchObject({ code: "device_not_found" });
    expect(await stillIn(ben.headers)).toBe(true);

    expect((await signOutDevice(ann.headers, "not-a-uuid")).statusCode).toBe(400);
  });

  it("signs every other device out with the auth API's logout scope others", async () => {
    const here = await signIn(ann.email, laptop);
    const elsewhere = await signIn(ann.email, phone);
    const response = await testApp.app.inject({ method: "POST", url: "/auth/v1/logout?scope=others", headers: here });
    expect(response.statusCode).toBe(204);
    expect(await stillIn(elsewhere)).toBe(false);
    expect(await stillIn(here)).toBe(true);
    expect(await devicesOf(here)).toHaveLength(1);
  });
});
