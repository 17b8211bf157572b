import { afterEach, describe, expect, it } from "vitest";

import {
  adoptAccountLocale,
  applyDocumentLocale,
  currentLocale,
  initialLocale,
  setLocale,
  storedLocale,
  textDirection,
} from "@/lib/locale";

const storage = (value: string | null) => ({ getItem: () => value });

describe("the member's language", () => {
  it("is their choice on this device when it is one of ours, else the browser's, else English", () => {
    expect(initialLocale(storage("en"), ["fr"])).toBe("en");
    expect(storedLocale(storage("xx"))).toBeUndefined();
    expect(initialLocale(storage("xx"), ["en-GB"])).toBe("en");
    expect(initialLocale(storage(null), [])).toBe("en");
    expect(
      initialLocale(
        {
          getItem: () => {
            throw new Error("refused");
          },
        },
        ["en-US"],
      ),
    ).toBe("en");
  });

  it("sets <html lang dir>, right to left for Arabic and Hebrew", () => {
    expect(textDirection("ar")).toBe("rtl");
    expect(textDirection("he-IL")).toBe("rtl");
    expect(textDirection("de")).toBe("ltr");
    const root = document.createElement("html");
    applyDocumentLocale("en", root);
    expect(root.lang).toBe("en");
    expect(root.dir).toBe("ltr");
  });

  describe("of the account, at sign-in", () => {
    const memory = () => {
      const kept = new Map<string, string>();
      return {
        getItem: (key: string) => kept.get(key) ?? null,
        setItem: (key: string, value: string) => void kept.set(key, value),
        removeItem: (key: string) => void kept.delete(key),
      };
    };
    afterEach(() => setLocale(undefined));

    it("is taken by a device with no choice of its own, and kept there", () => {
      const device = memory();
      expect(adoptAccountLocale("de", device)).toBe(true);
      expect(currentLocale()).toBe("de");
      expect(storedLocale(device)).toBe("de");
    });

    it("is not taken over a device's own choice, nor when it is none of ours or not set", () => {
      const device = memory();
      device.setItem("memory-box-locale", "en");
      expect(adoptAccountLocale("de", device)).toBe(false);
      expect(adoptAccountLocale("xx", memory())).toBe(false);
      expect(adoptAccountLocale(undefined, memory())).toBe(false);
      expect(adoptAccountLocale(null, memory())).toBe(false);
      expect(currentLocale()).toBe("en");
    });
  });
});
