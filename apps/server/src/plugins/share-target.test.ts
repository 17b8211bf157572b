import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestApp, type TestApp } from "../../test/test-app";
import { isShareFromThisDevice, type ShareRequestHeaders } from "./share-target";

// Another site's form cannot open "Add Memory" with its photo (issue #29 item 6, ADR 0044); the
// server's refusal of one is replayed in test/security/cross-site.security.test.ts.

const appOrigin = "https://box.example";
const headers = (overrides: Partial<ShareRequestHeaders>): ShareRequestHeaders => ({
  fetchSite: undefined,
  origin: undefined,
  referer: undefined,
  ...overrides,
});

describe("who may post to the share target", () => {
  it.each<[string, Partial<ShareRequestHeaders>]>([
    ["the share sheet (Sec-Fetch-Site: none)", { fetchSite: "none", origin: "null" }],
    ["this site's own form", { fetchSite: "same-origin", origin: appOrigin, referer: `${appOrigin}/` }],
    ["a browser without fetch metadata, from this site", { origin: appOrigin, referer: `${appOrigin}/x` }],
    ["a browser without fetch metadata or Origin", {}],
  ])("takes %s", (_name, overrides) => {
    expect(isShareFromThisDevice(headers(overrides), appOrigin)).toBe(true);
  });

  it.each<[string, Partial<ShareRequestHeaders>]>([
    ["another site's form", { fetchSite: "cross-site", origin: "https://evil.example" }],
    ["another site hiding its address", { fetchSite: "cross-site", origin: "null" }],
    ["a sibling on the same site", { fetchSite: "same-site", origin: "https://photos.box.example" }],
    ["a cross-site request by fetch metadata, whatever Origin says", { fetchSite: "cross-site", origin: appOrigin }],
    ["another site, to a browser without fetch metadata", { origin: "https://evil.example" }],
    ["another site's referrer alone", { referer: "https://evil.example/page" }],
  ])("refuses %s", (_name, overrides) => {
    expect(isShareFromThisDevice(headers(overrides), appOrigin)).toBe(false);
  });
});

describe("POST /share without the service worker", () => {
  let testApp: TestApp;
  beforeAll(async () => {
    testApp = await createTestApp("sqlite", { env: { PUBLIC_URL: appOrigin } });
  });
  afterAll(() => testApp.close());

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
  const share = (extra: Record<string, string>) =>
    testApp.app.inject({
      method: "POST",
      url: "/share",
      payload: photoForm,
      headers: { "content-type": `multipart/form-data; boundary=${boundary}`, ...extra },
    });

  it("opens the app for the share sheet and this site's own form, keeping nothing", async () => {
    for (const extra of [
      { "sec-fetch-site": "none", origin: "null" },
      { "sec-fetch-site": "same-origin", origin: appOrigin },
    ]) {
      const response = await share(extra);
      expect(response.statusCode, JSON.stringify(extra)).toBe(303);
      expect(response.headers.location).toBe("/");
    }
  });
});
