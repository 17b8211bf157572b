import { describe, expect, it } from "vitest";

import { authPathFor, safeNextPath } from "@/features/auth/utils/next-path";

describe("safeNextPath", () => {
  it.each([
    [null, "/"],
    [undefined, "/"],
    ["", "/"],
    ["/", "/"],
    ["/memory/42", "/memory/42"],
    ["/memory/42?tab=photos#top", "/memory/42?tab=photos#top"],
    ["/memory/a%2Fb", "/memory/a%2Fb"],
    ["/memory/../auth", "/"],
    ["/auth", "/"],
    ["/auth?next=/memory/1", "/"],
    ["//evil.example", "/"],
    ["///evil.example", "/"],
    ["/\\evil.example", "/"],
    ["\\\\evil.example", "/"],
    ["/\t/evil.example", "/"],
    ["/\n/evil.example", "/"],
    [" /memory/1", "/"],
    ["https://evil.example/", "/"],
    ["http:/evil.example", "/"],
    ["javascript:alert(1)", "/"],
    ["JavaScript:alert(1)", "/"],
    ["data:text/html,<script>alert(1)</script>", "/"],
    ["memory/42", "/"],
  ])("%j → %j", (next, expected) => {
    expect(safeNextPath(next)).toBe(expected);
  });
});

describe("authPathFor", () => {
  it("remembers a member screen in a readable next parameter", () => {
    expect(authPathFor("/memory/42")).toBe("/auth?next=/memory/42");
  });

  it("escapes a query so it stays inside the parameter", () => {
    const path = authPathFor("/memory/42?a=1&b=2");
    expect(path).toBe("/auth?next=/memory/42%3Fa%3D1%26b%3D2");
    expect(new URLSearchParams(path.split("?")[1]).get("next")).toBe("/memory/42?a=1&b=2");
  });

  it("leaves next out for the home screen and anything unsafe", () => {
    expect(authPathFor("/")).toBe("/auth");
    expect(authPathFor("//evil.example")).toBe("/auth");
  });
});
