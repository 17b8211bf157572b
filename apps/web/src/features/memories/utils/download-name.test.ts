import { describe, expect, it } from "vitest";

import { downloadName } from "@/features/memories/utils/download-name";

describe("downloadName", () => {
  it("names the file after the memory and the photo's number", () => {
    expect(downloadName("Picnic by the lake", 3, "image/jpeg")).toBe("Picnic by the lake - 3.jpg");
    expect(downloadName("The toast", 1, "video/mp4")).toBe("The toast - 1.mp4");
  });

  it("keeps titles in any script", () => {
    expect(downloadName("湖畔のピクニック", 2, "image/jpeg")).toBe("湖畔のピクニック - 2.jpg");
    expect(downloadName("نزهة على البحيرة", 1, "image/png")).toBe("نزهة على البحيرة - 1.png");
    expect(downloadName("Café au lait", 1, "image/webp")).toBe("Café au lait - 1.webp");
  });

  it("makes the name safe for file systems", () => {
    expect(downloadName('a/b\\c:d*e?f"g<h>i|j', 1, "image/jpeg")).toBe("a b c d e f g h i j - 1.jpg");
    expect(downloadName("line\nbreak\ttab", 1, "image/jpeg")).toBe("line break tab - 1.jpg");
    expect(downloadName("...", 4, "image/jpeg")).toBe("Memory - 4.jpg");
    expect(downloadName("  ", 4, "image/jpeg")).toBe("Memory - 4.jpg");
    expect(downloadName("CON", 1, "image/jpeg")).toBe("Memory - 1.jpg");
    expect(downloadName("x".repeat(500), 1, "image/jpeg")).toBe(`${"x".repeat(120)} - 1.jpg`);
    expect(downloadName("A photo", 1, "application/x-unknown")).toBe("A photo - 1.bin");
  });
});
