import { describe, expect, it } from "vitest";

import { applyDocumentLocale, initialLocale, storedLocale, textDirection } from "@/lib/locale";

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
});
