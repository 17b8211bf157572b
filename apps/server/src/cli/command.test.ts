import { describe, expect, it } from "vitest";
import { UsageError } from "./command";

describe("UsageError across bundles", () => {
  // A command's own bundle throws its own copy of UsageError; the CLI still prints the usage.
  it("recognises a UsageError made by another copy of the class, and nothing else", () => {
    const fromAnotherCopy = Object.assign(new Error("export takes one argument"), {
      [Symbol.for("memory-box.UsageError")]: true,
    });
    expect(fromAnotherCopy instanceof UsageError).toBe(true);
    expect(new UsageError("x") instanceof UsageError).toBe(true);
    expect(new Error("a bug") instanceof UsageError).toBe(false);
  });
});
