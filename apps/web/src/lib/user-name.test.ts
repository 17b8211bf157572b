import { describe, expect, it } from "vitest";

import { userDisplayName } from "@/lib/user-name";

describe("userDisplayName", () => {
  it("prefers the full name from the profile metadata", () => {
    expect(userDisplayName({ email: "alex@example.com", user_metadata: { full_name: "Alex Doe" } })).toBe("Alex Doe");
  });

  it.each([
    ["no full name", {}],
    ["an empty full name", { full_name: "" }],
    ["a blank full name", { full_name: "   " }],
    ["a full name that is not text", { full_name: 42 }],
  ])("falls back to the e-mail before the @ with %s", (_case, metadata) => {
    expect(userDisplayName({ email: "sam.smith@example.com", user_metadata: metadata })).toBe("sam.smith");
  });

  it("is empty without a user", () => {
    expect(userDisplayName(null)).toBe("");
    expect(userDisplayName({ email: undefined, user_metadata: {} })).toBe("");
  });
});
