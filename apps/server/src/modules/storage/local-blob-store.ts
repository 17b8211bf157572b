import fs, { constants } from "node:fs";
import {
  access,
  lstat,
  mkdir,
  open,
  readFile,
  readdir,
  realpath,
  rename,
  rm,
  rmdir,
  stat,
  statfs,
  writeFile,
} from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { InvalidBlobKeyError, isValidBlobKey, prefixDirectory, validateBlobKey, validateBlobPrefix } from "../../lib/blob-key";
import {
  BlobNotFoundError,
  type BlobContent,
  type BlobInfo,
  type BlobStore,
  type GetBlobOptions,
  type PutBlobOptions,
} from "./blob-store";
import type { BufferPool } from "../../lib/buffer-pool";
import { removeLeftoverTempFiles, ownedTempName } from "../../lib/temp-files";
import { resolveByteRange, validateByteRange } from "./byte-range";

/** A folder holding one file per key; `dir` is the real path, symlinks resolved. */
interface Tree {
  dir: string;
}

interface Folders {
  objects: Tree;
  metadata: Tree;
}

interface Sidecar {
  contentType?: string;
}

// A concurrent delete may prune a folder between our mkdir and rename; retrying is enough.
const PLACE_ATTEMPTS = 3;

/**
 * Stores blobs as plain files under `rootDir`:
 *
 *   objects/<key>   the bytes, so the folder can be browsed, backed up and restored as is
 *   metadata/<key>  a small JSON sidecar `{ "contentType": … }`, only when a type was given
 *   .tmp/           uploads in progress; never visible as objects
 *
 * Sidecars live in their own tree rather than next to the bytes (`<key>.meta.json`) so no key
 * is reserved and `list` never has to tell the two apart. Extended attributes would avoid the
 * second file but are not kept by every file system, copy tool or backup program.
 *
 * Writes go to `.tmp` first, are fsynced and renamed into place, so a reader sees the old or
 * the new bytes and a failed upload leaves nothing behind. The sidecar is renamed right after
 * the bytes: a crash between the two renames can leave a stale content type, never bad bytes.
 *
 * Unlike S3, "a" and "a/b" cannot both exist (a file cannot also be a folder); such a put is
 * refused with InvalidBlobKeyError.
 */
export class LocalBlobStore implements BlobStore {
  readonly rootDir: string;
  private readonly tempDir: string;
  private folders: Promise<Folders> | undefined;

  constructor(rootDir: string) {
    this.rootDir = path.resolve(rootDir);
    this.tempDir = path.join(this.rootDir, ".tmp");
  }

  async put(key: string, body: Readable | Buffer, options: PutBlobOptions = {}): Promise<BlobInfo> {
    validateBlobKey(key);
    const { objects, metadata } = await this.prepare();
    const tempData = path.join(this.tempDir, ownedTempName());
    const tempSidecar = options.contentType === undefined ? undefined : `${tempData}.json`;
    try {
      const written = await writeDurably(tempData, Buffer.isBuffer(body) ? Readable.from([body]) : body);
      if (tempSidecar !== undefined) {
        const sidecar: Sidecar = { contentType: options.contentType };
        await writeDurably(tempSidecar, Readable.from([Buffer.from(JSON.stringify(sidecar))]));
      }
      await placeFile(objects, key, tempData);
      if (tempSidecar !== undefined) await placeFile(metadata, key, tempSidecar);
      else await removeFile(metadata, key);
      return { key, size: written.size, contentType: options.contentType, lastModified: written.mtime };
    } catch (error) {
      await Promise.all([rm(tempData, { force: true }), tempSidecar !== undefined && rm(tempSidecar, { force: true })]);
      throw error;
    }
  }

  async get(key: string, options: GetBlobOptions = {}): Promise<BlobContent> {
    validateBlobKey(key);
    if (options.range) validateByteRange(options.range);
    const { objects, metadata } = await this.prepare();
    if (options.blocking && !options.range) {
      const opened = openBlocking(objects, key);
      const chunkBytes = options.bufferPool?.size ?? options.readChunkBytes ?? defaultReadChunkBytes;
      const reader: FileReader = {
        read: (buffer, length) => fs.readSync(opened.fd, buffer, 0, length, null),
        close: async () => fs.closeSync(opened.fd),
      };
      const body = sizedReadStream(reader, opened.size, chunkBytes, options.bufferPool);
      const contentType = options.withoutContentType ? undefined : await readContentType(metadata, key);
      return { body, info: { key, size: opened.size, contentType, lastModified: opened.mtime } };
    }
    const filePath = await realPathInside(objects, keyPath(objects, key));
    // O_NOFOLLOW: the file must not have been swapped for a symlink since realpath looked.
    const handle = filePath === null ? null : await openIfPresent(filePath, constants.O_RDONLY | (constants.O_NOFOLLOW ?? 0));
    if (!handle) throw new BlobNotFoundError(key);
    try {
      // Stat the open handle, not the path: a concurrent put renames a new file over the path,
      // but this descriptor keeps reading the one whose size we report.
      const stats = await handle.stat();
      if (!stats.isFile()) throw new BlobNotFoundError(key);
      const range = options.range && resolveByteRange(key, options.range, stats.size);
      const contentType = options.withoutContentType ? undefined : await readContentType(metadata, key);
      const body =
        options.bufferPool && !range
          ? sizedReadStream(
              {
                read: async (buffer, length) => (await handle.read(buffer, 0, length, null)).bytesRead,
                close: () => handle.close(),
              },
              stats.size,
              options.bufferPool.size,
              options.bufferPool,
            )
          : handle.createReadStream({
              ...range,
              ...(options.readChunkBytes ? { highWaterMark: options.readChunkBytes } : {}),
            });
      const info: BlobInfo = { key, size: stats.size, contentType, lastModified: stats.mtime };
      return range ? { body, info, range } : { body, info };
    } catch (error) {
      await handle.close();
      throw error;
    }
  }

  async stat(key: string): Promise<BlobInfo | null> {
    validateBlobKey(key);
    const { objects, metadata } = await this.prepare();
    const filePath = await realPathInside(objects, keyPath(objects, key));
    const stats = filePath === null ? null : await statIfPresent(filePath);
    if (!stats?.isFile()) return null;
    return { key, size: stats.size, contentType: await readContentType(metadata, key), lastModified: stats.mtime };
  }

  async delete(key: string): Promise<void> {
    validateBlobKey(key);
    const { objects, metadata } = await this.prepare();
    await removeFile(objects, key);
    await removeFile(metadata, key);
  }

  async *list(prefix: string): AsyncIterable<BlobInfo> {
    validateBlobPrefix(prefix);
    const { objects } = await this.prepare();
    const startKey = prefixDirectory(prefix);
    const startDir = await realPathInside(objects, startKey === "" ? objects.dir : keyPath(objects, startKey));
    if (startDir) yield* walk(startDir, startKey, prefix);
  }

  async check(): Promise<void> {
    await this.prepare();
    // Writing, not just stat-ing, catches a read-only remount or a full disk.
    const probe = path.join(this.tempDir, ownedTempName(".check"));
    try {
      await writeFile(probe, "ok");
    } finally {
      await rm(probe, { force: true });
    }
    await access(path.join(this.rootDir, "objects"), constants.R_OK | constants.W_OK);
  }

  /** Space left on the file system holding the store, for an unprivileged writer. */
  async freeBytes(): Promise<number> {
    await this.prepare();
    const stats = await statfs(this.rootDir);
    return stats.bavail * stats.bsize;
  }

  /** Nothing to release: every operation opens and closes its own files. */
  async close(): Promise<void> {}

  /** Creates the folders on first use; a failure is not cached, so a later call retries. */
  private prepare(): Promise<Folders> {
    this.folders ??= this.createFolders().catch((error: unknown) => {
      this.folders = undefined;
      throw error;
    });
    return this.folders;
  }

  private async createFolders(): Promise<Folders> {
    const objectsDir = path.join(this.rootDir, "objects");
    const metadataDir = path.join(this.rootDir, "metadata");
    await Promise.all([objectsDir, metadataDir, this.tempDir].map((dir) => mkdir(dir, { recursive: true })));
    // Before this store writes anything: what is there belongs to a crashed process or another live one.
    await removeLeftoverTempFiles(this.tempDir).catch(() => undefined);
    // Resolve once, so a root that is itself a symlink (say, to another disk) is allowed
    // while links inside it are checked against where it really lives.
    return { objects: { dir: await realpath(objectsDir) }, metadata: { dir: await realpath(metadataDir) } };
  }
}

function keyPath(tree: Tree, key: string): string {
  const target = path.join(tree.dir, ...key.split("/"));
  // Defence in depth: validateBlobKey already makes escaping impossible.
  if (!isInside(tree.dir, target)) throw new InvalidBlobKeyError(key, "it resolves outside the storage folder");
  return target;
}

function isInside(dir: string, target: string): boolean {
  const relative = path.relative(dir, target);
  return relative !== "" && relative !== ".." && !relative.startsWith(`..${path.sep}`) && !path.isAbsolute(relative);
}

/**
 * The real path of an existing `target`, or null when it does not exist. Throws when a
 * symlink leads out of the tree: that is tampering or a misconfiguration, and must be loud.
 */
async function realPathInside(tree: Tree, target: string): Promise<string | null> {
  let real: string;
  try {
    real = await realpath(target);
  } catch (error) {
    if (isErrorCode(error, "ENOENT", "ENOTDIR")) return null;
    throw error;
  }
  if (real !== tree.dir) assertInside(tree, target, real);
  return real;
}

/** Throws when `target` really is `real`, outside the tree: tampering or a misconfiguration, and loud. */
function assertInside(tree: Tree, target: string, real: string): void {
  if (!isInside(tree.dir, real))
    throw new Error(`Storage path ${target} resolves to ${real}, outside ${tree.dir}; refusing to follow it.`);
}

/** What `fs.createReadStream` reads at a time, used by a blocking read without a pool. */
const defaultReadChunkBytes = 64 * 1024;

interface OpenedFile {
  fd: number;
  size: number;
  mtime: Date;
}

/**
 * Opens `key`'s file with blocking calls and checks where it really is: on Linux by the path the
 * kernel gives for the open descriptor (one call, and no race with a link swapped in between),
 * elsewhere by resolving the path first, as `realPathInside` does.
 */
function openBlocking(tree: Tree, key: string): OpenedFile {
  const target = keyPath(tree, key);
  let fd: number;
  let real: string | undefined;
  try {
    real = procFdAvailable() ? undefined : fs.realpathSync.native(target);
    fd = fs.openSync(real ?? target, constants.O_RDONLY);
  } catch (error) {
    if (isErrorCode(error, "ENOENT", "ENOTDIR", "ELOOP")) throw new BlobNotFoundError(key);
    throw error;
  }
  try {
    assertInside(tree, target, real ?? fs.readlinkSync(`/proc/self/fd/${fd}`));
    const stats = fs.fstatSync(fd);
    if (!stats.isFile()) throw new BlobNotFoundError(key);
    return { fd, size: stats.size, mtime: stats.mtime };
  } catch (error) {
    fs.closeSync(fd);
    throw error;
  }
}

let procFd: boolean | undefined;

/** Whether this system names an open descriptor's file under /proc/self/fd (Linux); asked once, on the first blocking read. */
function procFdAvailable(): boolean {
  if (procFd === undefined) {
    try {
      procFd = fs.readlinkSync("/proc/self/fd/0") !== "";
    } catch {
      procFd = false;
    }
  }
  return procFd;
}

async function writeDurably(filePath: string, source: Readable): Promise<{ size: number; mtime: Date }> {
  const handle = await open(filePath, "wx");
  try {
    // One write at a time is the back-pressure: the source is read only as fast as the disk takes it.
    for await (const chunk of source) await handle.write(chunk as Buffer);
    await handle.sync();
    return await handle.stat();
  } finally {
    await handle.close();
  }
}

async function placeFile(tree: Tree, key: string, tempPath: string): Promise<void> {
  const target = keyPath(tree, key);
  for (let attempt = 1; ; attempt++) {
    try {
      const firstCreated = await mkdir(path.dirname(target), { recursive: true });
      const parent = await realPathInside(tree, path.dirname(target));
      if (parent === null) throw Object.assign(new Error("parent folder vanished"), { code: "ENOENT" });
      await rename(tempPath, path.join(parent, path.basename(target)));
      // The rename is durable once its folder is synced, and so is each new folder once its parent is.
      await fsyncFolders(parent, firstCreated === undefined ? parent : path.dirname(firstCreated));
      return;
    } catch (error) {
      if (isErrorCode(error, "ENOTDIR", "EEXIST", "EISDIR")) {
        throw new InvalidBlobKeyError(key, "it clashes with an existing key that is also used as a folder");
      }
      if (!isErrorCode(error, "ENOENT") || attempt >= PLACE_ATTEMPTS) throw error;
    }
  }
}

/** Removes the file for `key` if it is there, then the folders that removal left empty. */
async function removeFile(tree: Tree, key: string): Promise<void> {
  const target = keyPath(tree, key);
  const parent = await realPathInside(tree, path.dirname(target));
  if (parent === null) return;
  const filePath = path.join(parent, path.basename(target));
  const stats = await lstatIfPresent(filePath);
  // A folder at this path means the key is only a prefix of other keys: there is no object.
  if (!stats || stats.isDirectory()) return;
  await rm(filePath, { force: true });
  await removeEmptyFolders(tree, parent);
}

async function removeEmptyFolders(tree: Tree, from: string): Promise<void> {
  for (let dir = from; isInside(tree.dir, dir); dir = path.dirname(dir)) {
    try {
      await rmdir(dir);
    } catch (error) {
      if (isErrorCode(error, "ENOTEMPTY", "EEXIST", "ENOENT", "EBUSY")) return;
      throw error;
    }
  }
}

async function readContentType(metadata: Tree, key: string): Promise<string | undefined> {
  const sidecarPath = await realPathInside(metadata, keyPath(metadata, key));
  if (sidecarPath === null) return undefined;
  try {
    const sidecar = JSON.parse(await readFile(sidecarPath, "utf8")) as Sidecar;
    return typeof sidecar.contentType === "string" ? sidecar.contentType : undefined;
  } catch {
    // The type is a hint: a damaged or vanished sidecar must not make the bytes unreadable.
    return undefined;
  }
}

async function* walk(dir: string, dirKey: string, prefix: string): AsyncGenerator<BlobInfo> {
  let entries;
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (isErrorCode(error, "ENOENT", "ENOTDIR")) return;
    throw error;
  }
  for (const entry of entries) {
    const key = dirKey === "" ? entry.name : `${dirKey}/${entry.name}`;
    // Symlinks are neither files nor directories to a Dirent, so they are never followed.
    if (entry.isDirectory() && `${key}/`.startsWith(prefix)) {
      yield* walk(path.join(dir, entry.name), key, prefix);
    } else if (entry.isFile() && key.startsWith(prefix) && isValidBlobKey(key)) {
      const stats = await lstatIfPresent(path.join(dir, entry.name));
      if (stats) yield { key, size: stats.size, lastModified: stats.mtime };
    }
  }
}

/** Syncs `from` and each folder above it up to `upTo`. */
async function fsyncFolders(from: string, upTo: string): Promise<void> {
  // Windows cannot open a directory for fsync; NTFS journals renames itself.
  if (process.platform === "win32") return;
  for (let dir = from; ; dir = path.dirname(dir)) {
    const handle = await open(dir, "r");
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    if (dir === upTo || dir === path.dirname(dir)) return;
  }
}

const openIfPresent = (filePath: string, flags: number) => ifPresent(open(filePath, flags));
const statIfPresent = (filePath: string) => ifPresent(stat(filePath));
const lstatIfPresent = (filePath: string) => ifPresent(lstat(filePath));

async function ifPresent<T>(operation: Promise<T>): Promise<T | null> {
  try {
    return await operation;
  } catch (error) {
    if (isErrorCode(error, "ENOENT", "ENOTDIR", "ELOOP")) return null;
    throw error;
  }
}

function isErrorCode(error: unknown, ...codes: string[]): boolean {
  return error instanceof Error && codes.includes((error as NodeJS.ErrnoException).code ?? "");
}

/** Reads into a buffer at the file's current position; how many bytes it read. */
interface FileReader {
  read(buffer: Buffer, length: number): number | Promise<number>;
  close(): Promise<void>;
}

/**
 * A file's bytes up to the size stat gave when it was opened: no read to learn that the end is
 * reached (one per photo, a fifth of the reads of an export of phone photos). With a pool, reads
 * go into its buffers; a small file (a thumbnail) gets a buffer of its own size: one of the
 * pool's would be held whole while the output counts only the file's bytes, so thousands of them
 * could wait there (a megabyte each for kilobytes written).
 */
function sizedReadStream(file: FileReader, size: number, chunkBytes: number, pool: BufferPool | undefined): Readable {
  let left = size;
  return new Readable({
    highWaterMark: chunkBytes,
    read() {
      if (left <= 0) {
        this.push(null);
        return;
      }
      const buffer = pool && left >= pool.size / 16 ? pool.take() : Buffer.allocUnsafe(Math.min(left, chunkBytes));
      const done = (bytesRead: number) => {
        left -= bytesRead;
        if (bytesRead > 0) this.push(buffer.subarray(0, bytesRead));
        else {
          pool?.release(buffer);
          this.push(null);
        }
      };
      const failed = (error: Error) => {
        pool?.release(buffer);
        this.destroy(error);
      };
      try {
        const read = file.read(buffer, Math.min(buffer.length, left));
        if (typeof read === "number") done(read);
        else read.then(done, failed);
      } catch (error) {
        failed(error as Error);
      }
    },
    destroy(error, callback) {
      file.close().then(
        () => callback(error),
        (closeError: Error) => callback(error ?? closeError),
      );
    },
  });
}
