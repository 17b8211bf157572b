import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { buffer } from "node:stream/consumers";
import { MemoryLimits } from "@memory-box/contract";
import { afterEach, beforeEach, describe, expect, it, type MockInstance, vi } from "vitest";
import { dayOneId, dayOnePhoto, momentLine, tinyJpeg, writeDayOneExport, writeZip } from "../../../test/dayone-export";
import { ZipReader } from "../../lib/zip-reader";
import { ArchiveManifest } from "./archive-format";
import { ArchiveRefusedError, type ArchiveLimits, defaultArchiveLimits } from "./archive-source";
import { openDayOneArchive } from "./dayone-source";

// Issue #15: `npm run import -- --from dayone Export.zip` reads a Day One JSON export through this source.

const limits: ArchiveLimits = defaultArchiveLimits;

describe("openDayOneArchive", () => {
  let dir: string;
  let file: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-dayone-"));
    file = path.join(dir, "Export.zip");
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await fs.rm(dir, { recursive: true, force: true });
  });

  /** The manifest of the export at `file`, checked against the archive schema, with the source closed. */
  async function manifestOf(at = file) {
    const source = await openDayOneArchive(at, limits);
    await source.close();
    return ArchiveManifest.parse(source.manifest);
  }

  it("makes each entry a memory: first line as title, photo lines and escapes gone, the day where it was written, tags and photos in order", async () => {
    const red = await tinyJpeg("#c33");
    const blue = await tinyJpeg("#33c");
    const png = await tinyJpeg("#3c3");
    // Listed out of order: orderInEntry decides, and the photo without one comes last.
    const second = dayOnePhoto(blue, { orderInEntry: 1, date: "2021-06-01T12:00:00Z", width: 4032, height: 3024 });
    const last = dayOnePhoto(png, { type: "png" });
    const first = dayOnePhoto(red, { orderInEntry: 0, width: 0 });
    await writeDayOneExport(file, {
      "Journal.json": [
        {
          creationDate: "2021-06-01T23:30:00Z",
          modifiedDate: "2021-06-03T08:00:00Z",
          timeZone: "Asia/Tokyo",
          text: [
            "# Dinner in Lisbon\\!",
            "",
            momentLine(first),
            "We walked up to the castle\\. Prices \\- 3\\.50 \\(cheap\\)\\.  ",
            "",
            momentLine(second),
            "",
            `Tram 28 ${momentLine(last)}`,
            "",
          ].join("\n"),
          tags: [" Travel ", "food", "travel", "", "Lisbon"],
          photos: [last, second, first],
        },
      ],
    });

    const source = await openDayOneArchive(file, limits);
    try {
      const manifest = ArchiveManifest.parse(source.manifest);
      expect(manifest).toMatchObject({ format: "memory-box", version: 1, members: [], exported_at: "2021-06-03T08:00:00.000Z" });
      expect(manifest.memories).toHaveLength(1);
      const memory = manifest.memories[0]!;
      expect(memory).toMatchObject({
        title: "Dinner in Lisbon!",
        content: "We walked up to the castle. Prices - 3.50 (cheap).\n\nTram 28",
        memory_date: "2021-06-02",
        tags: ["Travel", "food", "Lisbon"],
        user_id: null,
        display_name: "Unknown User",
        created_at: "2021-06-01T23:30:00.000Z",
        updated_at: "2021-06-03T08:00:00.000Z",
      });
      expect(memory.photos.map((photo) => photo.position)).toEqual([0, 1, 2]);
      expect(memory.photos.map((photo) => [photo.content_type, photo.width, photo.height, photo.taken_at])).toEqual([
        ["image/jpeg", 1, 6, null],
        ["image/jpeg", 4032, 3024, "2021-06-01T12:00:00.000Z"],
        ["image/png", 8, 6, null],
      ]);
      const expectedBytes = [red, blue, png];
      for (const [index, photo] of memory.photos.entries()) {
        expect(photo.file).toBe(`photos/${memory.id}/${photo.id}.${index === 2 ? "png" : "jpg"}`);
        expect(photo.bytes).toBe(expectedBytes[index]!.length);
        expect(source.sizeOf(photo.file)).toBe(expectedBytes[index]!.length);
        expect((await buffer(await source.open(photo.file))).equals(expectedBytes[index]!)).toBe(true);
      }
      expect(source.sizeOf(`photos/${first.md5}.jpeg`)).toBeUndefined();
      await expect(source.open(`photos/${first.md5}.jpeg`)).rejects.toThrow(ArchiveRefusedError);
    } finally {
      await source.close();
    }
  });

  it("names an entry without text 'Untitled entry', cuts a long first line to a title and keeps it whole in the content", async () => {
    const longLine = `${"word ".repeat(60)}end`;
    await writeDayOneExport(file, {
      "Journal.json": [
        { creationDate: "2022-01-01T10:00:00Z", text: "" },
        { creationDate: "2022-01-02T10:00:00Z", text: `\n  \n${longLine}\nSecond line` },
        { creationDate: "2022-01-03T10:00:00Z", text: "###\n## \\#1 on the list\nBody" },
        { creationDate: "2022-01-04T10:00:00Z", text: "Only a title" },
      ],
    });

    const [empty, long, heading, titleOnly] = (await manifestOf()).memories;
    expect(empty).toMatchObject({ title: "Untitled entry", content: null, tags: [], photos: [] });
    expect(long!.title).toBe("word ".repeat(40).trimEnd());
    expect(long!.title.length).toBeLessThanOrEqual(MemoryLimits.titleMaxLength);
    expect(long!.content).toBe(`${longLine}\nSecond line`);
    expect(heading).toMatchObject({ title: "#1 on the list", content: "Body" });
    expect(titleOnly).toMatchObject({ title: "Only a title", content: null });
  });

  it("takes the day in UTC when the time zone is missing or unknown, and the creation date as the update without a modifiedDate", async () => {
    await writeDayOneExport(file, {
      "Journal.json": [
        { creationDate: "2021-06-01T23:30:00Z", text: "No zone" },
        { creationDate: "2021-06-01T23:30:00Z", timeZone: "Mars/Olympus_Mons", text: "Unknown zone" },
        { creationDate: "2021-06-01T02:00:00Z", timeZone: "America/Los_Angeles", text: "Day before" },
      ],
    });

    const memories = (await manifestOf()).memories;
    expect(memories.map((memory) => memory.memory_date)).toEqual(["2021-06-01", "2021-06-01", "2021-05-31"]);
    expect(memories[0]!.updated_at).toBe("2021-06-01T23:30:00.000Z");
  });

  it("derives the same RFC 4122 ids on every read, so importing the export again finds the same memories", async () => {
    const photo = dayOnePhoto(await tinyJpeg(), { identifier: "9B1D3F5A7C2E4B6D8F0A1C3E5B7D9F2A" });
    await writeDayOneExport(file, {
      "Journal.json": [
        { uuid: "0F5A8E2C4B7D4E1A9C3B2D6E8F0A1B2C", creationDate: "2023-03-01T09:00:00Z", text: "Same", photos: [photo] },
      ],
    });

    const firstRead = await manifestOf();
    expect(await manifestOf()).toEqual(firstRead);
    // SHA-1 of "dayone-entry:<uuid>" and "dayone-photo:<identifier>", version 5, RFC variant.
    expect(firstRead.memories[0]!.id).toBe("e76a3fda-6cd7-5394-85d3-bcf5d8733c34");
    expect(firstRead.memories[0]!.photos[0]!.id).toBe("22949101-e492-5818-9015-d2ed818ad21a");
  });

  it("merges every journal into one list of memories and finds photos whatever the case of their extension", async () => {
    const photo = dayOnePhoto(await tinyJpeg());
    await writeDayOneExport(file, {
      "Journal.json": [
        { creationDate: "2020-01-01T10:00:00Z", text: "Home one" },
        { creationDate: "2020-01-02T10:00:00Z", text: "Home two" },
      ],
      "Travel.json": [
        {
          creationDate: "2020-02-01T10:00:00Z",
          modifiedDate: "2024-05-05T05:05:05Z",
          text: "Abroad",
          photos: [{ ...photo, fileName: `${photo.md5}.JPEG` }],
        },
      ],
    });

    const source = await openDayOneArchive(file, limits);
    try {
      const manifest = ArchiveManifest.parse(source.manifest);
      expect(manifest.memories.map((memory) => memory.title)).toEqual(["Home one", "Home two", "Abroad"]);
      expect(new Set(manifest.memories.map((memory) => memory.id)).size).toBe(3);
      expect(manifest.exported_at).toBe("2024-05-05T05:05:05.000Z");
      const abroadPhoto = manifest.memories[2]!.photos[0]!;
      expect((await buffer(await source.open(abroadPhoto.file))).equals(photo.bytes)).toBe(true);
    } finally {
      await source.close();
    }
  });

  it("passes tags on as Day One has them (the importer holds them to its limits)", async () => {
    const tags = Array.from({ length: MemoryLimits.maxTags + 5 }, (_, index) => `tag ${index}`);
    const longTag = "x".repeat(MemoryLimits.tagMaxLength + 10);
    await writeDayOneExport(file, {
      "Journal.json": [{ creationDate: "2020-01-01T10:00:00Z", text: "Many", tags: [...tags, longTag] }],
    });

    expect((await manifestOf()).memories[0]!.tags).toEqual([...tags, longTag]);
  });

  describe("refuses, in words, and closes the ZIP", () => {
    let opens: MockInstance<typeof ZipReader.open>;
    let closes: MockInstance<ZipReader["close"]>;
    beforeEach(() => {
      opens = vi.spyOn(ZipReader, "open");
      closes = vi.spyOn(ZipReader.prototype, "close");
    });

    async function refusal(at = file, held: ArchiveLimits = limits): Promise<string> {
      const error = await openDayOneArchive(at, held).then(
        () => undefined,
        (thrown: unknown) => thrown,
      );
      expect(error).toBeInstanceOf(ArchiveRefusedError);
      // Every ZIP that was opened is closed again.
      const opened = await Promise.allSettled(opens.mock.results.map((result) => result.value as Promise<ZipReader>));
      expect(closes).toHaveBeenCalledTimes(opened.filter((result) => result.status === "fulfilled").length);
      return (error as Error).message;
    }

    it("an entry whose photo is not in the ZIP, naming the entry and the photo", async () => {
      const photo = dayOnePhoto(await tinyJpeg(), { missing: true });
      await writeDayOneExport(file, {
        "Journal.json": [{ creationDate: "2020-01-01T10:00:00Z", text: "Beach day\nSun", photos: [photo] }],
      });

      const message = await refusal();
      expect(message).toContain("Beach day");
      expect(message).toContain(photo.md5);
      expect(message).toContain("missing");
    });

    it("a ZIP with no journal at its top level", async () => {
      await writeZip(file, [
        [`photos/${"a".repeat(32)}.jpeg`, await tinyJpeg()],
        ["Export/Journal.json", JSON.stringify({ metadata: { version: "1.0" }, entries: [] })],
      ]);

      expect(await refusal()).toMatch(/^This is not a Day One export: /);
    });

    it("a journal that is not JSON, or not Day One's, naming the file", async () => {
      await writeZip(file, [
        ["Journal.json", '{ "metadata": { "version": "1.0" }, "entries": [ {'],
        ["Travel.json", "{}"],
      ]);
      expect(await refusal()).toMatch(/^Journal\.json is not valid JSON/);

      await writeZip(file, [
        ["Travel.json", JSON.stringify({ metadata: { version: "1.0" }, entries: [{ uuid: dayOneId(), text: "No date" }] })],
      ]);
      expect(await refusal()).toMatch(/^Travel\.json is not a Day One journal: .*entries\.0\.creationDate/);
    });

    it("an entry name that climbs out of the archive", async () => {
      await writeZip(file, [["../evil.json", JSON.stringify({ metadata: { version: "1.0" }, entries: [] })]]);

      expect(await refusal()).toContain("../evil.json");
    });

    it("a file that is not a ZIP", async () => {
      await fs.writeFile(file, randomBytes(2000));

      expect(await refusal()).toMatch(/^This file cannot be imported: it is not a ZIP file, or it is incomplete/);
    });

    it("a journal larger than the manifest limit, before reading it", async () => {
      await writeDayOneExport(file, { "Big.json": [{ creationDate: "2020-01-01T10:00:00Z", text: "x".repeat(5000) }] });
      const readSpy = vi.spyOn(ZipReader.prototype, "open");

      expect(await refusal(file, { ...limits, maxManifestBytes: 4000 })).toMatch(/^Big\.json is too large to import/);
      expect(readSpy).not.toHaveBeenCalled();
    });

    it("more files than the limit, and a photo larger than the photo limit", async () => {
      const photo = dayOnePhoto(await tinyJpeg());
      await writeDayOneExport(file, {
        "Journal.json": [{ creationDate: "2020-01-01T10:00:00Z", text: "Big photo", photos: [photo] }],
      });

      expect(await refusal(file, { ...limits, maxEntries: 1 })).toContain("more than 1");
      const message = await refusal(file, { ...limits, maxPhotoBytes: photo.bytes.length - 1 });
      expect(message).toContain("Big photo");
      expect(message).toContain("too large");
    });
  });
});

describe("a Day One entry's location", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), "memory-box-dayone-places-"));
  });
  afterEach(() => fs.rm(dir, { recursive: true, force: true }));

  it("becomes the memory's place, named by its town, else Day One's place name, region, country or point", async () => {
    const file = path.join(dir, "Export.zip");
    await writeDayOneExport(file, {
      "Journal.json": [
        {
          creationDate: "2022-05-01T10:00:00Z",
          text: "Pena",
          location: {
            latitude: 38.7876,
            longitude: -9.3906,
            placeName: "Palácio da Pena",
            localityName: "Sintra",
            administrativeArea: "Lisboa",
            country: "Portugal",
          },
        },
        {
          creationDate: "2022-05-02T10:00:00Z",
          text: "Venue",
          location: { latitude: 38.7, longitude: -9.1, placeName: "Time Out Market" },
        },
        { creationDate: "2022-05-03T10:00:00Z", text: "Sea", location: { latitude: 39.5, longitude: -12.25 } },
        { creationDate: "2022-05-04T10:00:00Z", text: "Nowhere", location: null },
        { creationDate: "2022-05-05T10:00:00Z", text: "Odd", location: { latitude: "north", longitude: 200 } },
        {
          creationDate: "2022-05-06T10:00:00Z",
          text: "Long",
          location: { latitude: 1, longitude: 2, localityName: "x".repeat(300) },
        },
      ],
    });
    const source = await openDayOneArchive(file, limits);
    await source.close();
    const [pena, venue, sea, nowhere, odd, long] = ArchiveManifest.parse(source.manifest).memories;
    expect(pena!.place).toEqual({ name: "Sintra", latitude: 38.7876, longitude: -9.3906, country_code: null });
    expect(venue!.place?.name).toBe("Time Out Market");
    expect(sea!.place).toEqual({ name: "39.5000, -12.2500", latitude: 39.5, longitude: -12.25, country_code: null });
    expect(nowhere!.place).toBeUndefined();
    expect(odd!.place).toBeUndefined();
    expect(long!.place?.name).toHaveLength(200);
  });
});
