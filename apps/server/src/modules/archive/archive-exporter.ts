import { once } from "node:events";
import fs from "node:fs";
import fsp from "node:fs/promises";
import path from "node:path";
import { Readable, type Writable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { ZipFile } from "yazl";
import { ConcurrencyLimit } from "../../lib/concurrency-limit";
import { ownedTempName } from "../../lib/temp-files";
import { photoBucket } from "../photos";
import type { BlobStore } from "../storage";
import { type ArchiveMemory, memoryPage, photoFile, unknownAuthor } from "./archive-format";
import { indexEnd, renderIndexEntry, renderIndexStart, renderMemoryPage } from "./archive-pages";
import type { MemoriesRepository, MemoryRecord } from "../memories";
import type { ArchiveRepository } from "./archive.repository";

export interface ExportSummary {
  memories: number;
  photos: number;
  photoBytes: number;
}

/**
 * Writes an instance's archive (issue #15, docs/formats): one ZIP with `memory-box.json`, every
 * photo's original under `photos/`, and browsable pages. It streams: memories are read a page at a
 * time and the next page is read only once the ZIP has reached the one before, so memory stays
 * bounded whatever the collection's size; the JSON and the index grow in temporary files.
 */
export class ArchiveExporter {
  constructor(
    private readonly deps: {
      archive: ArchiveRepository;
      memories: Pick<MemoriesRepository, "pageById">;
      blobStore: BlobStore;
      /** Where the JSON and the index are assembled (removed afterwards, and after a crash). */
      tempDir: string;
      pageSize?: number;
      now?: () => Date;
    },
  ) {}

  /** One export at a time per server: a second download waits its turn rather than doubling the disk and network load. */
  private readonly turns = new ConcurrencyLimit(1);

  write(output: Writable): Promise<ExportSummary> {
    return this.turns.run(() => this.writeNow(output));
  }

  private async writeNow(output: Writable): Promise<ExportSummary> {
    const exportedAt = (this.deps.now?.() ?? new Date()).toISOString();
    const mtime = new Date(exportedAt);
    const zip = new ZipFile();
    const failed = new Promise<never>((_, reject) => zip.once("error", reject));
    const written = pipeline(zip.outputStream as Readable, output);
    // Whichever ends first: a failure anywhere leaves the output unfinished, never a ZIP that looks whole.
    void written.catch(() => undefined);
    void failed.catch(() => undefined);

    await fsp.mkdir(this.deps.tempDir, { recursive: true });
    const jsonPath = path.join(this.deps.tempDir, ownedTempName(".json"));
    const indexPath = path.join(this.deps.tempDir, ownedTempName(".html"));
    const json = fs.createWriteStream(jsonPath);
    const index = fs.createWriteStream(indexPath);
    const summary: ExportSummary = { memories: 0, photos: 0, photoBytes: 0 };
    try {
      const members = (await this.deps.archive.members()).map((member) => ({
        id: member.id,
        email: member.email,
        display_name: member.display_name ?? member.email.split("@")[0] ?? member.email,
      }));
      await append(
        json,
        `{"format":"memory-box","version":1,"exported_at":${JSON.stringify(exportedAt)},"members":${JSON.stringify(members)},"memories":[`,
      );

      let after: string | null = null;
      let previousPage: Promise<void> = Promise.resolve();
      for (;;) {
        const rows: MemoryRecord[] = await Promise.race([this.deps.memories.pageById(after, this.deps.pageSize ?? 200), failed]);
        if (rows.length === 0) break;
        let reached!: () => void;
        const thisPage = new Promise<void>((resolve) => (reached = resolve));
        for (const [i, row] of rows.entries()) {
          const memory = toArchiveMemory(row);
          await append(json, (summary.memories > 0 ? "," : "") + JSON.stringify(memory));
          await append(index, renderIndexEntry(memory));
          summary.memories += 1;
          const html = Buffer.from(renderMemoryPage(memory));
          zip.addReadStreamLazy(memoryPage(memory.id), { mtime, compress: true }, (callback) => {
            if (i === 0) reached();
            callback(null, Readable.from([html]));
          });
          for (const [p, photo] of row.photos.entries()) {
            summary.photos += 1;
            summary.photoBytes += photo.bytes;
            // Photos are already compressed: stored as they are, read only when the ZIP reaches them.
            zip.addReadStreamLazy(memory.photos[p]!.file, { mtime, compress: false }, (callback) => {
              this.deps.blobStore.get(`${photoBucket}/${photo.object_key}`).then(
                (content) => callback(null, content.body),
                (error: unknown) => callback(error, undefined as never),
              );
            });
          }
        }
        after = rows.at(-1)!.id;
        // At most two pages wait in the ZIP's queue: this one, and the one being read next.
        await Promise.race([previousPage, failed]);
        previousPage = thisPage;
      }

      await append(json, "]}");
      await Promise.all([finish(json), finish(index)]);
      zip.addFile(jsonPath, "memory-box.json", { mtime, compress: true });
      const start = renderIndexStart(exportedAt, summary.memories);
      zip.addReadStream(Readable.from(indexPage(start, indexPath)), "index.html", { mtime, compress: true });
      zip.end();
      await Promise.race([written, failed]);
      return summary;
    } finally {
      json.destroy();
      index.destroy();
      await Promise.all([fsp.rm(jsonPath, { force: true }), fsp.rm(indexPath, { force: true })]);
    }
  }
}

function toArchiveMemory(row: MemoryRecord): ArchiveMemory {
  return {
    id: row.id,
    title: row.title,
    content: row.content,
    memory_date: row.memory_date,
    tags: row.tags,
    user_id: row.user_id,
    display_name: (row.user_id && row.display_name) || unknownAuthor,
    created_at: row.created_at,
    updated_at: row.updated_at,
    photos: row.photos.map((photo) => ({
      id: photo.id,
      position: photo.position ?? 0,
      taken_at: photo.taken_at,
      width: photo.width,
      height: photo.height,
      content_type: photo.content_type,
      bytes: photo.bytes,
      file: photoFile(row.id, photo.id, photo.content_type),
    })),
  };
}

async function* indexPage(start: string, entriesPath: string): AsyncGenerator<Buffer | string> {
  yield start;
  yield* fs.createReadStream(entriesPath) as AsyncIterable<Buffer>;
  yield indexEnd;
}

async function append(stream: fs.WriteStream, text: string): Promise<void> {
  if (!stream.write(text)) await once(stream, "drain");
}

async function finish(stream: fs.WriteStream): Promise<void> {
  stream.end();
  await once(stream, "finish");
}
