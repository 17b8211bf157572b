import { describe, expect, it } from "vitest";
import type { ConfigError } from "./config";
import { loadConfig } from "./config";

// Web Push's settings (ADR 0059): a generated key pair unless both halves are set, a contact push
// services accept, and the insecure-endpoints switch off by default.

const defaults = { webDir: "/srv/web", version: "1.2.3" };
const publicKey = `B${"A".repeat(86)}`;
const privateKey = "A".repeat(43);

const problemsOf = (env: Record<string, string>) => {
  try {
    loadConfig(env, defaults);
    return [];
  } catch (error) {
    return (error as ConfigError).problems.map((problem) => problem.split(":")[0]);
  }
};

describe("push settings", () => {
  it("generates keys, refuses insecure endpoints and names the public https address as the contact by default", () => {
    expect(loadConfig({}, defaults).push).toEqual({
      vapidKeys: undefined,
      vapidSubject: "mailto:no-reply@localhost",
      allowInsecureEndpoints: false,
    });
    expect(loadConfig({ PUBLIC_URL: "https://box.example.org" }, defaults).push.vapidSubject).toBe("https://box.example.org");
    expect(loadConfig({ MAIL_FROM: "Memory Box <hello@box.example.org>" }, defaults).push.vapidSubject).toBe(
      "mailto:hello@box.example.org",
    );
  });

  it("takes the operator's key pair, contact and switch", () => {
    expect(
      loadConfig(
        {
          PUSH_VAPID_PUBLIC_KEY: publicKey,
          PUSH_VAPID_PRIVATE_KEY: privateKey,
          PUSH_VAPID_SUBJECT: "mailto:admin@example.org",
          PUSH_ALLOW_INSECURE_ENDPOINTS: "true",
        },
        defaults,
      ).push,
    ).toEqual({
      vapidKeys: { publicKey, privateKey },
      vapidSubject: "mailto:admin@example.org",
      allowInsecureEndpoints: true,
    });
  });

  it("refuses half a key pair, keys of the wrong size and a contact push services refuse", () => {
    expect(problemsOf({ PUSH_VAPID_PUBLIC_KEY: publicKey })).toEqual(["PUSH_VAPID_PRIVATE_KEY"]);
    expect(problemsOf({ PUSH_VAPID_PRIVATE_KEY: privateKey })).toEqual(["PUSH_VAPID_PUBLIC_KEY"]);
    expect(problemsOf({ PUSH_VAPID_PUBLIC_KEY: "short", PUSH_VAPID_PRIVATE_KEY: privateKey })).toEqual(["PUSH_VAPID_PUBLIC_KEY"]);
    expect(problemsOf({ PUSH_VAPID_SUBJECT: "http://box.example.org" })).toEqual(["PUSH_VAPID_SUBJECT"]);
    expect(problemsOf({ PUSH_ALLOW_INSECURE_ENDPOINTS: "maybe" })).toEqual(["PUSH_ALLOW_INSECURE_ENDPOINTS"]);
  });
});
