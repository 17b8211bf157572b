import { mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, utimes, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { once } from "node:events";
import { buffer } from "node:stream/consumers";
import { randomBytes } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { InvalidBlobKeyError } from "../../lib/blob-key";
import { BufferPool } from "../../lib/buffer-pool";
import { BlobNotFoundError, type BlobInfo } from "./blob-store";
import { LocalBlobStore } from "./local-blob-store";
import { failingStream } from "./test-helpers";

// What only the file-system store promises; behaviour shared with S3 is in the contract suite.
describe("LocalBlobStore", () => {
  let sandbox: string;
  let root: string;
  let store: LocalBlobStore;

  beforeEach(async () => {
    sandbox = await mkdtemp(path.join(os.tmpdir(), "memory-box-local-store-"));
    root = path.join(sandbox, "storage");
    store = new LocalBlobStore(root);
  });

  afterEach(async () => {
    await rm(sandbox, { recursive: true, force: true });
  });

  const openDescriptors = async () => (await readdir("/proc/self/fd")).length;
  const filesUnder = async (dir: string) => (await readdir(dir, { recursive: true })).sort();
  const exists = (target: string) =>
    stat(target).then(
      () => true,
      () => false,
    );

  it("creates its folders on first use", async () => {
    const nested = new LocalBlobStore(path.join(sandbox, "not", "yet", "there"));
    await nested.put("a.txt", Buffer.from("a"));
    expect(await readFile(path.join(sandbox, "not", "yet", "there", "objects", "a.txt"), "utf8")).toBe("a");
  });

  it("keeps the bytes as a plain file and the content type in a sidecar", async () => {
    await store.put("media/1/photo.jpg", Buffer.from("jpeg"), { contentType: "image/jpeg" });

    expect(await readFile(path.join(root, "objects", "media", "1", "photo.jpg"), "utf8")).toBe("jpeg");
    expect(JSON.parse(await readFile(path.join(root, "metadata", "media", "1", "photo.jpg"), "utf8"))).toEqual({
      contentType: "image/jpeg",
    });
  });

  it("drops the old content type when an object is replaced without one", async () => {
    await store.put("doc", Buffer.from("v1"), { contentType: "text/plain" });
    await store.put("doc", Buffer.from("v2"));

    expect((await store.stat("doc"))?.contentType).toBeUndefined();
  });

  it("still serves the bytes when the sidecar is damaged", async () => {
    await store.put("doc", Buffer.from("bytes"), { contentType: "text/plain" });
    await writeFile(path.join(root, "metadata", "doc"), "{not json");

    const result = await store.get("doc");
    expect((await buffer(result.body)).toString()).toBe("bytes");
    expect(result.info.contentType).toBeUndefined();
  });

  it("leaves no file and no temp file behind when the body stream fails", async () => {
    await expect(store.put("album/broken.bin", failingStream(5), { contentType: "image/png" })).rejects.toThrow(
      "connection lost",
    );

    expect(await store.stat("album/broken.bin")).toBeNull();
    expect(await filesUnder(path.join(root, ".tmp"))).toEqual([]);
    expect(await filesUnder(path.join(root, "objects"))).toEqual([]);
    expect(await filesUnder(path.join(root, "metadata"))).toEqual([]);
  });

  it("leaves an existing object untouched when its replacement fails midway", async () => {
    await store.put("album/photo.jpg", Buffer.from("the original"), { contentType: "image/jpeg" });

    await expect(store.put("album/photo.jpg", failingStream(5), { contentType: "image/png" })).rejects.toThrow();

    const result = await store.get("album/photo.jpg");
    expect((await buffer(result.body)).toString()).toBe("the original");
    expect(result.info).toMatchObject({ size: 12, contentType: "image/jpeg" });
    expect(await filesUnder(path.join(root, ".tmp"))).toEqual([]);
  });

  it("lists neither sidecars nor uploads in progress", async () => {
    await store.put("a/one", Buffer.from("1"), { contentType: "text/plain" });
    await writeFile(path.join(root, ".tmp", "upload-in-progress"), "partial");

    const keys: string[] = [];
    for await (const info of store.list("")) keys.push(info.key);
    expect(keys).toEqual(["a/one"]);
  });

  it("removes folders a delete leaves empty, and only those", async () => {
    await store.put("media/1/original", Buffer.from("o"), { contentType: "image/jpeg" });
    await store.put("media/2/original", Buffer.from("o"));

    await store.delete("media/1/original");

    expect(await exists(path.join(root, "objects", "media", "1"))).toBe(false);
    expect(await exists(path.join(root, "metadata", "media", "1"))).toBe(false);
    expect(await exists(path.join(root, "objects", "media", "2", "original"))).toBe(true);
  });

  it("refuses a key whose path is already a folder of other keys, and the reverse", async () => {
    await store.put("a/b", Buffer.from("nested"));
    await store.put("c", Buffer.from("plain"));

    await expect(store.put("a", Buffer.from("x"))).rejects.toBeInstanceOf(InvalidBlobKeyError);
    await expect(store.put("c/d", Buffer.from("x"))).rejects.toBeInstanceOf(InvalidBlobKeyError);

    expect((await buffer((await store.get("c")).body)).toString()).toBe("plain");
    expect(await filesUnder(path.join(root, ".tmp"))).toEqual([]);
  });

  it("sweeps the temp files crashed processes left, but not another live process's write in flight", async () => {
    const tempDir = path.join(root, ".tmp");
    await mkdir(tempDir, { recursive: true });
    const crashed = "999999999-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d11";
    const inFlight = `${process.ppid}-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d12`;
    const stale = `${process.ppid}-0b9c6c1e-8d0a-4c55-9a57-2f1f9b1c1d13`;
    for (const name of [crashed, inFlight, stale, "ownerless"]) await writeFile(path.join(tempDir, name), "x");
    const twoDaysAgo = new Date(Date.now() - 2 * 24 * 60 * 60 * 1000);
    await utimes(path.join(tempDir, stale), twoDaysAgo, twoDaysAgo);

    await store.check();

    expect(await filesUnder(tempDir)).toEqual([inFlight]);
  });

  describe("blocking reads (the export command's)", () => {
    it("give the bytes and the size a read through libuv's pool gives, with a pool or without", async () => {
      const photo = randomBytes(300_000);
      const thumbnail = randomBytes(2_000);
      await store.put("media/1/photo.jpg", photo, { contentType: "image/jpeg" });
      await store.put("media/1/thumb.webp", thumbnail);
      const pool = new BufferPool(64 * 1024);
      for (const options of [{ blocking: true }, { blocking: true, bufferPool: pool, withoutContentType: true }]) {
        const { body, info } = await store.get("media/1/photo.jpg", options);
        expect((await buffer(body)).equals(photo)).toBe(true);
        expect(info.size).toBe(photo.length);
        expect(info.contentType).toBe(options.withoutContentType ? undefined : "image/jpeg");
        expect((await buffer((await store.get("media/1/thumb.webp", options)).body)).equals(thumbnail)).toBe(true);
      }
    });

    it("answer a missing key, and a folder's, as not found, and close what they opened when destroyed", async () => {
      await store.put("media/1/photo.jpg", Buffer.from("jpeg"));
      await expect(store.get("media/2/photo.jpg", { blocking: true })).rejects.toBeInstanceOf(BlobNotFoundError);
      await expect(store.get("media/1", { blocking: true })).rejects.toBeInstanceOf(BlobNotFoundError);
      const before = await openDescriptors();
      const { body } = await store.get("media/1/photo.jpg", { blocking: true });
      expect(await openDescriptors()).toBe(before + 1);
      body.destroy();
      await once(body, "close");
      expect(await openDescriptors()).toBe(before);
    });
  });

  describe("symlinks out of the root", () => {
    let outside: string;

    beforeEach(async () => {
      outside = path.join(sandbox, "outside");
      await mkdir(outside);
      await writeFile(path.join(outside, "secret.txt"), "do not serve me");
      await store.put("album/kept.txt", Buffer.from("inside"));
      await symlink(path.join(outside, "secret.txt"), path.join(root, "objects", "album", "link.txt"));
      await symlink(outside, path.join(root, "objects", "escape"));
    });

    it("does not follow a linked file for reads", async () => {
      await expect(store.get("album/link.txt")).rejects.toThrow(/outside/);
      await expect(store.get("album/link.txt", { blocking: true })).rejects.toThrow(/outside/);
      await expect(store.stat("album/link.txt")).rejects.toThrow(/outside/);
    });

    it("does not follow a linked folder for reads, writes or deletes", async () => {
      await expect(store.get("escape/secret.txt")).rejects.toThrow(/outside/);
      await expect(store.get("escape/secret.txt", { blocking: true })).rejects.toThrow(/outside/);
      await expect(store.put("escape/planted.txt", Buffer.from("x"))).rejects.toThrow(/outside/);
      await expect(store.delete("escape/secret.txt")).rejects.toThrow(/outside/);

      expect(await filesUnder(outside)).toEqual(["secret.txt"]);
      expect(await filesUnder(path.join(root, ".tmp"))).toEqual([]);
    });

    it("skips links when listing", async () => {
      const listed: BlobInfo[] = [];
      for await (const info of store.list("")) listed.push(info);
      expect(listed.map((info) => info.key)).toEqual(["album/kept.txt"]);
    });
  });
});
