import Bowser from "bowser";

/** "Chrome 131" and "Android 15" from a user agent; nulls for what it does not say. */
export function describeUserAgent(userAgent: string | null): { browser: string | null; system: string | null } {
  if (!userAgent) return { browser: null, system: null };
  const { browser, os } = Bowser.parse(userAgent);
  const major = (version: string | undefined) => version?.split(".")[0];
  const named = (...parts: (string | undefined)[]) => parts.filter(Boolean).join(" ") || null;
  return {
    browser: named(browser.name, major(browser.version)),
    // Every Mac browser reports macOS 10.15.7 whatever the real version, so none is shown.
    system: named(os.name, os.name === "macOS" ? undefined : (os.versionName ?? os.version)),
  };
}
