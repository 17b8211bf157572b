import fc from "fast-check";
import sharp from "sharp";
import { describe, expect, it } from "vitest";
import { parseExifDate } from "./exif-date";

interface Entry {
  tag: number;
  value: string;
  /** TIFF field type; 2 (ASCII) unless a test wants a wrong one. */
  type?: number;
}

/** A TIFF block with IFD0 and, when `exif` is given, an Exif IFD that IFD0 points to. */
function tiff({ bigEndian = false, ifd0 = [], exif }: { bigEndian?: boolean; ifd0?: Entry[]; exif?: Entry[] }): Buffer {
  const ifdSize = (entries: number) => 2 + entries * 12 + 4;
  const ifd0Entries = ifd0.length + (exif ? 1 : 0);
  const exifStart = 8 + ifdSize(ifd0Entries);
  let dataAt = exifStart + (exif ? ifdSize(exif.length) : 0);
  const out = Buffer.alloc(dataAt + 64 * (ifd0.length + (exif?.length ?? 0)));
  const u16 = (value: number, at: number) => (bigEndian ? out.writeUInt16BE(value, at) : out.writeUInt16LE(value, at));
  const u32 = (value: number, at: number) => (bigEndian ? out.writeUInt32BE(value, at) : out.writeUInt32LE(value, at));

  out.write(bigEndian ? "MM" : "II", 0, "latin1");
  u16(42, 2);
  u32(8, 4);
  const writeIfd = (start: number, entries: Entry[], exifPointer?: number) => {
    u16(entries.length + (exifPointer === undefined ? 0 : 1), start);
    let at = start + 2;
    for (const { tag, value, type = 2 } of entries) {
      const bytes = Buffer.from(`${value}\0`, "latin1");
      u16(tag, at);
      u16(type, at + 2);
      u32(bytes.length, at + 4);
      if (bytes.length <= 4) bytes.copy(out, at + 8);
      else {
        u32(dataAt, at + 8);
        bytes.copy(out, dataAt);
        dataAt += bytes.length;
      }
      at += 12;
    }
    if (exifPointer !== undefined) {
      u16(0x8769, at);
      u16(4, at + 2);
      u32(1, at + 4);
      u32(exifPointer, at + 8);
    }
  };
  writeIfd(8, ifd0, exif ? exifStart : undefined);
  if (exif) writeIfd(exifStart, exif);
  return out.subarray(0, dataAt);
}

const DATE_TIME = 0x0132;
const DATE_TIME_ORIGINAL = 0x9003;
const DATE_TIME_DIGITIZED = 0x9004;
const OFFSET_TIME = 0x9010;
const OFFSET_TIME_ORIGINAL = 0x9011;

const ISO_RESULT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}([+-]\d{2}:\d{2})?$/;

describe("parseExifDate", () => {
  it("reads what sharp returns for a JPEG (an 'Exif\\0\\0' prefix) and a PNG (bare TIFF)", async () => {
    const withDate = sharp({ create: { width: 8, height: 8, channels: 3, background: "#000" } }).withExif({
      IFD0: { DateTime: "2024:01:02 03:04:05" },
      IFD2: { DateTimeOriginal: "2023:07:14 18:30:05" },
    });
    const jpegExif = (await sharp(await withDate.clone().jpeg().toBuffer()).metadata()).exif;
    const pngExif = (await sharp(await withDate.clone().png().toBuffer()).metadata()).exif;

    expect(jpegExif?.subarray(0, 6).toString("latin1")).toBe("Exif\0\0");
    expect(parseExifDate(jpegExif)).toBe("2023-07-14T18:30:05");
    expect(parseExifDate(pngExif)).toBe("2023-07-14T18:30:05");
  });

  it("reads HEIF's form, a 4-byte offset before the TIFF header", () => {
    const block = tiff({ exif: [{ tag: DATE_TIME_ORIGINAL, value: "2020:02:29 12:00:00" }] });
    const heif = Buffer.concat([Buffer.from([0, 0, 0, 6]), Buffer.from("Exif\0\0", "latin1"), block]);
    expect(parseExifDate(heif)).toBe("2020-02-29T12:00:00");
  });

  it("reads big-endian (Motorola) blocks", () => {
    expect(parseExifDate(tiff({ bigEndian: true, exif: [{ tag: DATE_TIME_ORIGINAL, value: "2019:05:06 07:08:09" }] }))).toBe(
      "2019-05-06T07:08:09",
    );
  });

  it("appends the recorded UTC offset of the same date", () => {
    const exif = [
      { tag: DATE_TIME_ORIGINAL, value: "2023:07:14 18:30:05" },
      { tag: OFFSET_TIME_ORIGINAL, value: "-05:30" },
      { tag: OFFSET_TIME, value: "+01:00" },
    ];
    expect(parseExifDate(tiff({ exif }))).toBe("2023-07-14T18:30:05-05:30");
  });

  it("ignores an offset that is not ±HH:MM", () => {
    for (const offset of ["05:30", "+5:30", "+15:00", "+01:60", "Z", "   :  "]) {
      const exif = [
        { tag: DATE_TIME_ORIGINAL, value: "2023:07:14 18:30:05" },
        { tag: OFFSET_TIME_ORIGINAL, value: offset },
      ];
      expect(parseExifDate(tiff({ exif }))).toBe("2023-07-14T18:30:05");
    }
  });

  it("prefers DateTimeOriginal, then DateTimeDigitized, then IFD0's DateTime", () => {
    const original = { tag: DATE_TIME_ORIGINAL, value: "2001:01:01 01:01:01" };
    const digitized = { tag: DATE_TIME_DIGITIZED, value: "2002:02:02 02:02:02" };
    const modified = { tag: DATE_TIME, value: "2003:03:03 03:03:03" };

    expect(parseExifDate(tiff({ ifd0: [modified], exif: [digitized, original] }))).toBe("2001-01-01T01:01:01");
    expect(parseExifDate(tiff({ ifd0: [modified], exif: [digitized] }))).toBe("2002-02-02T02:02:02");
    expect(parseExifDate(tiff({ ifd0: [modified] }))).toBe("2003-03-03T03:03:03");
    expect(parseExifDate(tiff({ ifd0: [modified], exif: [{ ...original, value: "0000:00:00 00:00:00" }] }))).toBe(
      "2003-03-03T03:03:03",
    );
  });

  it("accepts the variants some writers produce", () => {
    for (const [value, expected] of [
      ["2023-07-14 18:30:05", "2023-07-14T18:30:05"],
      ["2023:07:14T18:30:05", "2023-07-14T18:30:05"],
      ["2023:07:14 18:30:05.123", "2023-07-14T18:30:05"],
      [" 2023:07:14 18:30:05 ", "2023-07-14T18:30:05"],
    ]) {
      expect(parseExifDate(tiff({ exif: [{ tag: DATE_TIME_ORIGINAL, value: value! }] }))).toBe(expected);
    }
  });

  it("returns null for dates no clock took a photo at", () => {
    for (const value of [
      "0000:00:00 00:00:00",
      "    :  :     :  :  ",
      "2023:02:29 10:00:00",
      "2023:13:01 10:00:00",
      "2023:04:31 10:00:00",
      "2023:01:01 24:00:00",
      "2023:01:01 23:60:00",
      "2023:01:01 23:59:60",
      "1700:01:01 00:00:00",
      "2023:1:1 1:1:1",
      "yesterday",
      "",
    ]) {
      expect(parseExifDate(tiff({ exif: [{ tag: DATE_TIME_ORIGINAL, value }] }))).toBeNull();
    }
  });

  it("returns null when the date is not stored as ASCII", () => {
    expect(parseExifDate(tiff({ exif: [{ tag: DATE_TIME_ORIGINAL, value: "2023:07:14 18:30:05", type: 7 }] }))).toBeNull();
  });

  it("returns null without EXIF, TIFF header or date", () => {
    expect(parseExifDate(undefined)).toBeNull();
    expect(parseExifDate(Buffer.alloc(0))).toBeNull();
    expect(parseExifDate(Buffer.from("Exif\0\0", "latin1"))).toBeNull();
    expect(parseExifDate(Buffer.from("II+\0\x08\0\0\0\0\0", "latin1"))).toBeNull();
    expect(parseExifDate(tiff({ ifd0: [{ tag: 0x010f, value: "Make" }] }))).toBeNull();
  });

  it("stays inside the block when offsets point outside it or back at themselves", () => {
    const block = tiff({ exif: [{ tag: DATE_TIME_ORIGINAL, value: "2023:07:14 18:30:05" }] });
    const pointers = [0x0fffffff, 0xffffffff, block.length - 2, 0, 8];

    for (const pointer of pointers) {
      const badIfd0 = Buffer.from(block);
      badIfd0.writeUInt32LE(pointer, 4);
      expect(() => parseExifDate(badIfd0)).not.toThrow();

      const badString = Buffer.from(block);
      // The date entry is the Exif IFD's first: 8 (header) + 18 (IFD0, one entry) + 2 + 8.
      badString.writeUInt32LE(pointer, 8 + 18 + 2 + 8);
      expect(parseExifDate(badString)).toBeNull();
    }
    expect(parseExifDate(block.subarray(0, block.length - 5))).toBeNull();
  });

  it("never throws on random bytes (fuzz)", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 600 }), (bytes) => {
        const result = parseExifDate(bytes);
        expect(result === null || ISO_RESULT.test(result)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("never throws on random bytes behind a valid TIFF header (fuzz)", () => {
    fc.assert(
      fc.property(fc.boolean(), fc.uint8Array({ maxLength: 600 }), (bigEndian, body) => {
        const header = Buffer.from(bigEndian ? [0x4d, 0x4d, 0, 42, 0, 0, 0, 8] : [0x49, 0x49, 42, 0, 8, 0, 0, 0]);
        const result = parseExifDate(Buffer.concat([header, body]));
        expect(result === null || ISO_RESULT.test(result)).toBe(true);
      }),
      { numRuns: 2_000 },
    );
  });

  it("never throws on mutations of a valid block (fuzz)", () => {
    const block = tiff({
      ifd0: [{ tag: DATE_TIME, value: "2003:03:03 03:03:03" }],
      exif: [
        { tag: DATE_TIME_ORIGINAL, value: "2023:07:14 18:30:05" },
        { tag: OFFSET_TIME_ORIGINAL, value: "+02:00" },
      ],
    });
    const edits = fc.array(fc.record({ at: fc.nat(block.length - 1), byte: fc.integer({ min: 0, max: 255 }) }), {
      minLength: 1,
      maxLength: 6,
    });

    fc.assert(
      fc.property(edits, fc.nat(block.length), (changes, length) => {
        const mutated = Buffer.from(block);
        for (const { at, byte } of changes) mutated[at] = byte;
        const result = parseExifDate(mutated.subarray(0, Math.max(length, block.length - 8)));
        expect(result === null || ISO_RESULT.test(result)).toBe(true);
      }),
      { numRuns: 3_000 },
    );
  });
});
