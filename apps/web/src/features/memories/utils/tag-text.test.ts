import { parseTagText } from "@memory-box/contract";
import { describe, expect, it } from "vitest";

describe("the tags typed in the form", () => {
  it("are split at the comma the member's keyboard types: ASCII, Japanese and Chinese, Arabic", () => {
    expect(parseTagText("summer, lake, Summer")).toEqual(["summer", "lake"]);
    expect(parseTagText("旅行、記念日，家族")).toEqual(["旅行", "記念日", "家族"]);
    expect(parseTagText("سفر، عائلة")).toEqual(["سفر", "عائلة"]);
  });
});
