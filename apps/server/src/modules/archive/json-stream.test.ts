import { Readable } from "node:stream";
import { TokenParser } from "@streamparser/json";
import { describe, expect, it, vi } from "vitest";
import { ArchiveRefusedError } from "./archive-source";
import { parseJsonStream, TokenType } from "./json-stream";

// The manifest's parser reads a root object's keys it was not asked for without keeping them: an
// archive padded with a large value under a key nobody reads (or with many such keys) costs time
// to read, within the limits, but no memory.

/** A JSON document streamed in chunks as they are made, so the test holds none of it. */
function streamOf(parts: () => Iterable<string>): Readable {
  return Readable.from(
    (function* () {
      let chunk = "";
      for (const part of parts()) {
        chunk += part;
        if (chunk.length >= 64 * 1024) {
          yield Buffer.from(chunk);
          chunk = "";
        }
      }
      if (chunk) yield Buffer.from(chunk);
    })(),
  );
}

describe("parseJsonStream", () => {
  it("keeps nothing of a root key no selector names: its value never reaches the parser that builds values", async () => {
    const written = vi.spyOn(TokenParser.prototype, "write");
    const seen: unknown[] = [];
    try {
      const { topLevelKinds } = await parseJsonStream(
        streamOf(function* () {
          yield '{"wanted": [1, 2], "padding": [';
          for (let index = 0; index < 1000; index += 1) yield `${index ? "," : ""}{"text":"padding ${index}"}`;
          yield '], "last": ["end"]}';
        }),
        { name: "manifest.json", paths: ["$.wanted.*", "$.last.*"], onValue: (value) => seen.push(value) },
      );
      expect(seen).toEqual([1, 2, "end"]);
      expect([...topLevelKinds]).toEqual([
        ["wanted", TokenType.LEFT_BRACKET],
        ["last", TokenType.LEFT_BRACKET],
      ]);
    } finally {
      written.mockRestore();
    }
    // What the parser was given: the wanted keys and values, one null in the padding's place.
    const values = written.mock.calls.map(([token]) => (token as { value: unknown }).value);
    expect(values.filter((value) => typeof value === "string" && /padding|text/.test(value))).toEqual([]);
    expect(values.length).toBeLessThan(30);
  });

  it("keeps not even the names of many unwanted keys, and takes scalars and objects under them", async () => {
    const seen: unknown[] = [];
    const { topLevelKinds } = await parseJsonStream(
      streamOf(function* () {
        yield '{"a": 1, "b": {"c": [true, null]}, "wanted": ["x"], "d": "text", "e": []}';
      }),
      { name: "manifest.json", paths: ["$.wanted.*"], onValue: (value) => seen.push(value) },
    );
    expect(seen).toEqual(["x"]);
    expect([...topLevelKinds.keys()]).toEqual(["wanted"]);
  });

  it("holds an unwanted value to the same limits as a wanted one", async () => {
    const options = {
      name: "manifest.json",
      paths: ["$.wanted.*"],
      limits: { maxStringChars: 100, maxDepth: 4 },
      onValue: () => {},
    };
    await expect(
      parseJsonStream(
        streamOf(() => [`{"other": "${"x".repeat(101)}"}`]),
        options,
      ),
    ).rejects.toThrow(/longer than 100 characters/);
    await expect(
      parseJsonStream(
        streamOf(() => ['{"other": [[[[[1]]]]]}']),
        options,
      ),
    ).rejects.toThrow(ArchiveRefusedError);
    await expect(
      parseJsonStream(
        streamOf(() => ['{"other": [1, }']),
        options,
      ),
    ).rejects.toThrow(/not valid JSON/);
  });

  it("gives the whole document when no selector is given", async () => {
    const seen: unknown[] = [];
    await parseJsonStream(
      streamOf(() => ['{"a": [1], "b": {"c": 2}}']),
      { name: "x.json", onValue: (value) => seen.push(value) },
    );
    expect(seen).toEqual([{ a: [1], b: { c: 2 } }]);
  });
});
