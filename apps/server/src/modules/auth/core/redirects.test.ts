import { describe, expect, it } from "vitest";
import { resolveRedirect } from "./redirects";

// Where e-mailed links may send a session (protocol §6.6; security checklist §6 check 19).

const site = "https://memories.example.org";
const allowList = ["https://app.example.org/**", "http://localhost:*/**", "https://*.preview.example.net/**", "myapp://callback"];

describe("resolveRedirect", () => {
  it.each([
    ["the site itself", `${site}/welcome?x=1#top`, `${site}/welcome?x=1#top`],
    ["the bare site origin", site, `${site}/`],
    ["an allow-listed path", "https://app.example.org/after/sign-up", "https://app.example.org/after/sign-up"],
    ["an allow-listed port", "http://localhost:5173/auth/callback", "http://localhost:5173/auth/callback"],
    ["an allow-listed sub-domain", "https://pr-12.preview.example.net/x", "https://pr-12.preview.example.net/x"],
  ])("keeps %s", (_label, requested, expected) => {
    expect(resolveRedirect(requested, site, allowList)).toBe(expected);
  });

  it.each([
    ["nothing", undefined],
    ["garbage", "not a url"],
    ["a foreign origin", "https://evil.example.com/steal"],
    ["a look-alike host", "https://app.example.org.evil.com/"],
    ["a protocol-relative path", "//evil.example.com/"],
    ["javascript:", "javascript:alert(1)"],
    ["data:", "data:text/html,<script>alert(1)</script>"],
    ["a custom scheme, even allow-listed", "myapp://callback"],
    ["credentials before an IP host that * would match", "http://localhost:@3232235777/x"],
    ["a backslash that moves the host", "https://3232235777\\.preview.example.net/x"],
    ["user info on the site's own origin", "https://attacker@memories.example.org/"],
    ["CR LF", `${site}/x\r\nSet-Cookie: a=b`],
    ["a tab", "https://app.example.org\t.evil.com/"],
    ["a NUL", `${site}/\u0000`],
  ])("falls back to the site for %s", (_label, requested) => {
    expect(resolveRedirect(requested, site, allowList)).toBe(site);
  });

  it("serialises what it keeps, so the Location header never carries raw non-ASCII", () => {
    expect(resolveRedirect(`${site}/mémoire`, site, allowList)).toBe(`${site}/m%C3%A9moire`);
  });

  it("matches a listed bare origin with or without the trailing slash", () => {
    expect(resolveRedirect("https://other.example.org", site, ["https://other.example.org"])).toBe("https://other.example.org/");
    expect(resolveRedirect("https://other.example.org/", site, ["https://other.example.org"])).toBe("https://other.example.org/");
  });
});
