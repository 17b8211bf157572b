import { afterEach, describe, expect, it } from "vitest";

import { applyTheme, chooseTheme, storedTheme } from "@/lib/theme";

describe("theme", () => {
  afterEach(() => {
    localStorage.clear();
    document.documentElement.className = "";
  });

  it("follows the system until the member chooses, and keeps the choice on this device", () => {
    expect(storedTheme()).toBe("system");
    chooseTheme("dark");
    expect(document.documentElement.classList.contains("dark")).toBe(true);
    expect(storedTheme()).toBe("dark");

    chooseTheme("light");
    expect([...document.documentElement.classList]).toEqual(["light"]);
    chooseTheme("system");
    expect([...document.documentElement.classList]).toEqual([]);
    expect(localStorage.getItem("memory-box-theme")).toBeNull();
  });

  it("ignores what it does not know, and a storage that refuses", () => {
    localStorage.setItem("memory-box-theme", "sepia");
    expect(storedTheme()).toBe("system");
    const refusing = {
      getItem: () => {
        throw new DOMException("denied", "SecurityError");
      },
    };
    expect(storedTheme(refusing)).toBe("system");
    applyTheme("system");
    expect(document.documentElement.className).toBe("");
  });
});
