import { createHash, randomBytes, randomUUID } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InvalidBlobKeyError } from "../../lib/blob-key";
import { BlobNotFoundError, type BlobInfo, type BlobStore } from "./blob-store";
import { BlobRangeNotSatisfiableError, InvalidByteRangeError } from "./byte-range";
import { LocalBlobStore } from "./local-blob-store";
import { startTestS3Server } from "../../../test/s3-test-server";
import { S3BlobStore } from "./s3-blob-store";
import { failingStream, generatedStream } from "./test-helpers";

interface Harness {
  store: BlobStore;
  /** A store of the same kind whose storage cannot be used, for check(). */
  unusableStore: BlobStore;
  stop(): Promise<void>;
}

const LIST_PAGE_SIZE = 2;

async function startLocal(): Promise<Harness> {
  const dir = await mkdtemp(path.join(os.tmpdir(), "memory-box-blob-local-"));
  const fileInTheWay = path.join(dir, "not-a-folder");
  await writeFile(fileInTheWay, "");
  return {
    store: new LocalBlobStore(path.join(dir, "root")),
    unusableStore: new LocalBlobStore(path.join(fileInTheWay, "root")),
    stop: () => rm(dir, { recursive: true, force: true }),
  };
}

async function startS3rver(): Promise<Harness> {
  const server = await startTestS3Server();
  // A key prefix inside the bucket, so the suite also proves keys are mapped in and out of it.
  const store = new S3BlobStore({ ...server.connection, prefix: "instance-1", listPageSize: LIST_PAGE_SIZE });
  const unusableStore = new S3BlobStore({ ...server.connection, bucket: "no-such-bucket" });
  return {
    store,
    unusableStore,
    stop: async () => {
      await store.close();
      await unusableStore.close();
      await server.stop();
    },
  };
}

const implementations: [name: string, start: () => Promise<Harness>][] = [
  ["local", startLocal],
  ["s3 (s3rver)", startS3rver],
];

describe.each(implementations)("BlobStore contract: %s", (_name, start) => {
  let harness: Harness | undefined;
  let store: BlobStore;

  beforeAll(async () => {
    harness = await start();
    store = harness.store;
  });

  afterAll(async () => {
    await harness?.stop();
  });

  // Every test writes under its own folder, so tests never see each other's objects.
  const folder = () => `test-${randomUUID()}`;

  describe("put and get", () => {
    it("round-trips a Buffer", async () => {
      const key = `${folder()}/note.txt`;
      const content = Buffer.from("hello, memory box");

      const info = await store.put(key, content);
      expect(info).toMatchObject({ key, size: content.length });
      expect(info.lastModified).toBeInstanceOf(Date);
      expect(Math.abs(info.lastModified.getTime() - Date.now())).toBeLessThan(60_000);

      const result = await store.get(key);
      expect(await buffer(result.body)).toEqual(content);
      expect(result.info).toMatchObject({ key, size: content.length });
      expect(result.range).toBeUndefined();
    });

    it("round-trips a stream of several chunks", async () => {
      const key = `${folder()}/chunks.bin`;
      const chunks = [randomBytes(1000), randomBytes(1), randomBytes(70_000)];

      const info = await store.put(key, Readable.from(chunks));

      expect(info.size).toBe(71_001);
      expect(await buffer((await store.get(key)).body)).toEqual(Buffer.concat(chunks));
    });

    it("round-trips an empty object", async () => {
      const key = `${folder()}/empty`;
      await store.put(key, Buffer.alloc(0));
      const result = await store.get(key);
      expect(await buffer(result.body)).toHaveLength(0);
      expect(result.info.size).toBe(0);
    });

    it("streams an 8 MB body of unknown length both ways", async () => {
      const key = `${folder()}/large.bin`;
      const { stream, digest } = generatedStream(8 * 1024 * 1024);

      const info = await store.put(key, stream);

      expect(info.size).toBe(8 * 1024 * 1024);
      const result = await store.get(key);
      const readHash = createHash("sha256");
      for await (const chunk of result.body) readHash.update(chunk as Buffer);
      expect(readHash.digest("hex")).toBe(digest());
    });

    it("keeps the content type", async () => {
      const key = `${folder()}/photo.jpg`;

      const info = await store.put(key, Buffer.from("jpeg bytes"), { contentType: "image/jpeg" });

      expect(info.contentType).toBe("image/jpeg");
      expect((await store.stat(key))?.contentType).toBe("image/jpeg");
      const result = await store.get(key);
      result.body.destroy();
      expect(result.info.contentType).toBe("image/jpeg");
    });

    it("replaces an existing object", async () => {
      const key = `${folder()}/replaced.txt`;
      await store.put(key, Buffer.from("first version, longer"), { contentType: "text/plain" });

      await store.put(key, Buffer.from("second"), { contentType: "text/markdown" });

      const result = await store.get(key);
      expect((await buffer(result.body)).toString()).toBe("second");
      expect(result.info).toMatchObject({ size: 6, contentType: "text/markdown" });
    });

    it("accepts keys with spaces and non-ASCII characters", async () => {
      const dir = folder();
      const key = `${dir}/été 2024/Ça + ça = ♥ (1).jpg`;

      await store.put(key, Buffer.from("unicode"));

      expect((await buffer((await store.get(key)).body)).toString()).toBe("unicode");
      expect((await collect(store.list(`${dir}/`))).map((info) => info.key)).toEqual([key]);
    });

    it("accepts keys that only look like dot segments", async () => {
      const dir = folder();
      // "..x" at the top level is the one a careless "starts with .." containment check refuses.
      const keys = [`..${dir}`, `${dir}/.hidden`, `${dir}/a..b/...`];

      for (const key of keys) await store.put(key, Buffer.from(key));

      for (const key of keys) expect((await buffer((await store.get(key)).body)).toString()).toBe(key);
      expect(keysOf(await collect(store.list(`..${dir}`)))).toEqual([`..${dir}`]);
      expect(keysOf(await collect(store.list(`${dir}/`)))).toEqual([`${dir}/.hidden`, `${dir}/a..b/...`]);
    });

    it("rejects a body stream that fails midway and stores nothing", async () => {
      const key = `${folder()}/broken.bin`;

      await expect(store.put(key, failingStream(3))).rejects.toThrow("connection lost");

      expect(await store.stat(key)).toBeNull();
    });

    it("rejects a large body stream that fails midway and stores nothing (a multipart upload on S3)", async () => {
      const key = `${folder()}/broken-large.bin`;

      await expect(store.put(key, failingStream(400))).rejects.toThrow("connection lost");

      expect(await store.stat(key)).toBeNull();
    });

    it("throws BlobNotFoundError for a missing key", async () => {
      const key = `${folder()}/missing.txt`;
      const attempt = store.get(key);
      await expect(attempt).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(attempt).rejects.toMatchObject({ statusCode: 404, code: "object_not_found" });
    });
  });

  describe("byte ranges", () => {
    const content = Buffer.from("0123456789abcdefghijklmnopqrstuvwxyz");
    let key: string;

    beforeAll(async () => {
      key = `${folder()}/range.txt`;
      await store.put(key, content, { contentType: "text/plain" });
    });

    it("reads start to end, inclusive", async () => {
      const result = await store.get(key, { range: { start: 10, end: 19 } });
      expect((await buffer(result.body)).toString()).toBe("abcdefghij");
      expect(result.range).toEqual({ start: 10, end: 19 });
      expect(result.info).toMatchObject({ size: content.length, contentType: "text/plain" });
    });

    it("reads from start to the end of the object", async () => {
      const result = await store.get(key, { range: { start: 30 } });
      expect((await buffer(result.body)).toString()).toBe("uvwxyz");
      expect(result.range).toEqual({ start: 30, end: 35 });
    });

    it("reads from the first byte on", async () => {
      const result = await store.get(key, { range: { start: 0 } });
      expect(await buffer(result.body)).toEqual(content);
      expect(result.range).toEqual({ start: 0, end: 35 });
    });

    // Not at offset 0: s3rver mistakes `bytes=0-0` for `bytes=0-` (real S3 does not).
    it("reads a single byte", async () => {
      const result = await store.get(key, { range: { start: 5, end: 5 } });
      expect((await buffer(result.body)).toString()).toBe("5");
      expect(result.range).toEqual({ start: 5, end: 5 });
    });

    it("clamps an end past the last byte", async () => {
      const result = await store.get(key, { range: { start: 33, end: 1000 } });
      expect((await buffer(result.body)).toString()).toBe("xyz");
      expect(result.range).toEqual({ start: 33, end: 35 });
    });

    it("refuses a start past the last byte with 416", async () => {
      const attempt = store.get(key, { range: { start: 36 } });
      await expect(attempt).rejects.toBeInstanceOf(BlobRangeNotSatisfiableError);
      await expect(attempt).rejects.toMatchObject({ statusCode: 416, code: "range_not_satisfiable", size: 36 });
    });

    it("rejects a malformed range", async () => {
      for (const range of [{ start: -1 }, { start: 5, end: 4 }, { start: 1.5 }]) {
        await expect(store.get(key, { range })).rejects.toBeInstanceOf(InvalidByteRangeError);
      }
    });

    it("reports a missing key before a range problem", async () => {
      await expect(store.get(`${folder()}/nothing`, { range: { start: 0 } })).rejects.toBeInstanceOf(BlobNotFoundError);
    });
  });

  describe("stat and delete", () => {
    it("stats a present key and returns null for an absent one", async () => {
      const dir = folder();
      await store.put(`${dir}/present.txt`, Buffer.from("12345"));

      expect(await store.stat(`${dir}/present.txt`)).toMatchObject({ key: `${dir}/present.txt`, size: 5 });
      expect(await store.stat(`${dir}/absent.txt`)).toBeNull();
    });

    it("does not mistake a folder of keys for an object", async () => {
      const dir = folder();
      await store.put(`${dir}/album/photo.jpg`, Buffer.from("x"));

      expect(await store.stat(`${dir}/album`)).toBeNull();
      await expect(store.get(`${dir}/album`)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it("deletes an object", async () => {
      const key = `${folder()}/doomed.txt`;
      await store.put(key, Buffer.from("bye"), { contentType: "text/plain" });

      await store.delete(key);

      expect(await store.stat(key)).toBeNull();
      await expect(store.get(key)).rejects.toBeInstanceOf(BlobNotFoundError);
    });

    it("deletes only the given key", async () => {
      const dir = folder();
      await store.put(`${dir}/a/one`, Buffer.from("1"));
      await store.put(`${dir}/a/two`, Buffer.from("2"));

      await store.delete(`${dir}/a/one`);

      expect(await store.stat(`${dir}/a/two`)).not.toBeNull();
    });

    it("accepts deleting a missing key", async () => {
      const dir = folder();
      await expect(store.delete(`${dir}/never-existed`)).resolves.toBeUndefined();
      await expect(store.delete(`${dir}/deep/never/existed`)).resolves.toBeUndefined();
    });
  });

  describe("list", () => {
    it("lists only keys under the prefix, nested ones included", async () => {
      const dir = folder();
      await store.put(`${dir}/a.txt`, Buffer.from("a"));
      await store.put(`${dir}/b/c.txt`, Buffer.from("cc"));
      await store.put(`${dir}/b/d/e.txt`, Buffer.from("eee"));
      await store.put(`${dir}x/other.txt`, Buffer.from("other"));

      const listed = await collect(store.list(`${dir}/`));

      expect(listed.map(({ key, size }) => ({ key, size }))).toEqual([
        { key: `${dir}/a.txt`, size: 1 },
        { key: `${dir}/b/c.txt`, size: 2 },
        { key: `${dir}/b/d/e.txt`, size: 3 },
      ]);
      for (const info of listed) expect(info.lastModified).toBeInstanceOf(Date);
    });

    it("treats the prefix as a plain string prefix, not a folder", async () => {
      const dir = folder();
      await store.put(`${dir}/photo-1.jpg`, Buffer.from("1"));
      await store.put(`${dir}/photo-10/thumb.jpg`, Buffer.from("10"));
      await store.put(`${dir}/poster.jpg`, Buffer.from("p"));

      expect(keysOf(await collect(store.list(`${dir}/photo-1`)))).toEqual([`${dir}/photo-1.jpg`, `${dir}/photo-10/thumb.jpg`]);
      expect(keysOf(await collect(store.list(dir)))).toHaveLength(3);
    });

    it(`lists across several pages (the S3 store asks for ${LIST_PAGE_SIZE} keys a page here)`, async () => {
      const dir = folder();
      const keys = Array.from({ length: 2 * LIST_PAGE_SIZE + 1 }, (_, index) => `${dir}/${index}.bin`);
      await Promise.all(keys.map((key) => store.put(key, Buffer.from(key))));

      expect(keysOf(await collect(store.list(`${dir}/`)))).toEqual([...keys].sort());
    });

    it("lists nothing for an unknown prefix", async () => {
      expect(await collect(store.list(`${folder()}/`))).toEqual([]);
    });

    it("does not list a deleted key", async () => {
      const dir = folder();
      await store.put(`${dir}/kept`, Buffer.from("k"));
      await store.put(`${dir}/gone/deep`, Buffer.from("g"));

      await store.delete(`${dir}/gone/deep`);

      expect(keysOf(await collect(store.list(`${dir}/`)))).toEqual([`${dir}/kept`]);
    });
  });

  describe("key validation", () => {
    const invalidKeys = [
      "",
      "../x",
      "a/../../x",
      "/abs",
      "a//b",
      "a/./b",
      ".",
      "a/",
      "a\\b",
      "a\u0000b",
      "tab\there",
      "x".repeat(1025),
    ];

    it.each(invalidKeys.map((key) => [JSON.stringify(key).slice(0, 40), key]))("rejects %s everywhere", async (_label, key) => {
      const operations = [
        () => store.put(key, Buffer.from("x")),
        () => store.get(key),
        () => store.stat(key),
        () => store.delete(key),
      ];
      for (const operation of operations) {
        await expect(operation()).rejects.toSatisfy(
          (error) => error instanceof InvalidBlobKeyError && error.statusCode === 400 && error.code === "invalid_key",
        );
      }
    });

    it("rejects an invalid list prefix", async () => {
      for (const prefix of ["../", "/abs", "a//", "a\\"]) {
        await expect(collect(store.list(prefix))).rejects.toBeInstanceOf(InvalidBlobKeyError);
      }
    });
  });

  describe("check", () => {
    it("passes when the storage is usable", async () => {
      await expect(store.check()).resolves.toBeUndefined();
    });

    it("fails when the storage is unusable", async () => {
      await expect(harness?.unusableStore.check()).rejects.toThrow(Error);
    });

    it("tells the free space of a disk, and nothing for S3, whose capacity is the provider's", async () => {
      const free = await store.freeBytes();
      if (store instanceof LocalBlobStore) expect(free).toBeGreaterThan(0);
      else expect(free).toBeNull();
    });
  });
});

async function collect(items: AsyncIterable<BlobInfo>): Promise<BlobInfo[]> {
  const all: BlobInfo[] = [];
  for await (const item of items) all.push(item);
  return all.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const keysOf = (infos: BlobInfo[]) => infos.map((info) => info.key);
