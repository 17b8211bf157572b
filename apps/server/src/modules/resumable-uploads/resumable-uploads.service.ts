import { randomBytes } from "node:crypto";
import fsp from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import { finishedUploadMediaHeader, type Photo, resumableUploadsPath } from "@memory-box/contract";
import { type CancellationContext, ERRORS, Server, StreamLimiter, type Upload } from "@tus/server";
import { NodeRequest, sendNodeResponse } from "srvx/node";
import { z } from "zod";
import { AppError, classifyError } from "../../errors";
import { PartialUploadStore, uploadIdPattern } from "./partial-upload-store";

/** What the completion port receives: the whole file, on the server's disk, and whose it is. */
export interface CompletedUpload {
  ownerId: string;
  /** The received file; removed by this module once the port has answered, whatever it answered. */
  file: string;
  /** The file's name as the member's device gave it (validated, at most `maxFileNameLength`). */
  fileName: string;
  size: number;
}

/** Takes a completed upload in as a photo or video, or refuses it (an AppError with its code). */
export type CompletionPort = (upload: CompletedUpload) => Promise<Photo>;

export interface ResumableUploadsDeps {
  /** Where partial uploads wait: on the same disk as DATA_DIR, whatever the blob store is. */
  directory: string;
  /** Largest file accepted (VIDEO_MAX_BYTES). */
  maxBytes: number;
  /** An upload with no progress for this long is swept (default a day). */
  idleLifetimeMs?: number;
  complete: CompletionPort;
  log: { error(object: object, message: string): void; warn(object: object, message: string): void };
}

export const maxFileNameLength = 255;
const maxFileTypeLength = 255;
/** Partial uploads without progress for a day are removed (the tus expiration extension). */
export const uploadIdleLifetimeMs = 24 * 3600 * 1000;
/** The metadata key the server writes itself: the member who created the upload. */
const ownerKey = "owner";

/** The `Upload-Metadata` a client may send: a file name and a media type, both bounded. */
const ClientMetadata = z.strictObject({
  filename: z
    .string()
    .min(1)
    .max(maxFileNameLength)
    // No path, no control characters: the name is shown and may become part of a stored name.
    .regex(/^[^/\\\p{Cc}]+$/u, "must be a file name without a path or control characters"),
  filetype: z
    .string()
    .max(maxFileTypeLength)
    .regex(/^[\w.+-]+\/[\w.+-]+$/, "must be a media type such as video/mp4")
    .optional(),
});

/** What a request brings to the tus server that the protocol does not carry: who is asking. */
interface RequestContext {
  ownerId: string;
  /** Set when something this module threw (or classified) ends the request: answered in the app's shape. */
  refusal?: AppError;
}

/**
 * Resumable uploads over tus 1.0.0 (@tus/server with @tus/file-store): creation (with upload),
 * termination and expiration; the length is always declared. Each upload belongs to the member
 * who created it (the server's own `owner` key in its metadata): anyone else is told it does not
 * exist. On the last byte the file goes to the completion port, and the answer to that request is
 * the port's Photo or its refusal; the upload's files are removed either way.
 */
export class ResumableUploadsService {
  readonly store: PartialUploadStore;
  private readonly tus: Server;
  private readonly contexts = new WeakMap<Request, RequestContext>();

  constructor(private readonly deps: ResumableUploadsDeps) {
    this.store = new PartialUploadStore(deps.directory, deps.idleLifetimeMs ?? uploadIdleLifetimeMs);
    this.tus = new Server({
      path: resumableUploadsPath,
      datastore: this.store,
      maxSize: deps.maxBytes,
      // `Location: /api/v1/uploads/{id}`: a path on this origin, whatever Host or X-Forwarded-* say.
      relativeLocation: true,
      respectForwardedHeaders: false,
      // 128 random bits: an id cannot be guessed, and is one more check behind the owner's.
      namingFunction: () => randomBytes(16).toString("hex"),
      // The web app is this origin: no other site's page is let in by CORS.
      allowedOrigins: () => false,
      onUploadCreate: async (request, upload) => ({
        metadata: { ...upload.metadata, [ownerKey]: this.context(request).ownerId },
      }),
      onUploadFinish: async (request, upload) => this.finish(request, upload),
      onResponseError: (request, error) => {
        const context = this.contexts.get(request);
        // tus's own refusals ({status_code, body}, or an Error carrying one) are translated by their status when answered.
        if (!context || !(error instanceof Error)) return undefined;
        const { error: refusal, unexpected, operatorMustAct } = classifyError(error);
        if (unexpected && "status_code" in error) return undefined;
        if (unexpected) deps.log.error({ err: error }, "a resumable upload failed");
        else if (operatorMustAct)
          deps.log.error({ err: error, code: refusal.code }, "the server cannot do this until its operator acts");
        context.refusal = refusal;
        return { status_code: refusal.statusCode, body: "" };
      },
    });
    readSocketBodies(this.tus, this.store);
  }

  /** The largest file accepted, in bytes. */
  get maxBytes(): number {
    return this.deps.maxBytes;
  }

  /**
   * Refuses a creation the tus server would take but this app does not: no declared length (or a
   * deferred one), over the limit, metadata that is not a bounded file name and media type.
   */
  checkCreation(headers: Record<string, string | string[] | undefined>): void {
    const length = headers["upload-length"];
    if (typeof length !== "string" || !/^\d{1,16}$/.test(length) || headers["upload-defer-length"] !== undefined)
      throw new AppError("upload_length_required");
    if (Number(length) > this.deps.maxBytes)
      throw new AppError("request_entity_too_large", {
        text: { id: "errorText.upload.tooLarge", values: { size: sizeInWords(this.deps.maxBytes) } },
      });
    if (headers["upload-concat"] !== undefined)
      throw new AppError("bad_request", { message: "Uploads are sent whole, not in parts to concatenate." });
    ClientMetadata.parse(parseMetadata(headers["upload-metadata"]));
  }

  /**
   * An upload of this member's, or `upload_not_found`: an id that is malformed, unknown, finished,
   * swept or another member's is answered alike, so nothing tells them apart.
   */
  async assertOwnUpload(id: string, ownerId: string): Promise<void> {
    const info = uploadIdPattern.test(id) ? await this.store.info(id) : undefined;
    if (info?.metadata?.[ownerKey] !== ownerId) throw new AppError("upload_not_found");
  }

  /**
   * Hands a request to the tus server and writes its answer: the headers already set on the reply
   * (security headers, request id) stay, and a refusal is the app's JSON error in `language`.
   */
  async handle(
    raw: { req: IncomingMessage; res: ServerResponse },
    ownerId: string,
    render: (error: AppError) => { headers?: Record<string, string>; body: string },
  ): Promise<void> {
    const request = new NodeRequest({ req: raw.req, res: raw.res });
    let body: ReadableStream<Uint8Array> | undefined;
    // srvx's body (Readable.toWeb) copies every chunk and tus turns it back into a Node stream:
    // that took two thirds of a loopback upload's time. The handlers' writes read the socket
    // itself instead (`readSocketBodies`); the web stream is there for anything else that reads.
    Object.defineProperty(request, "body", {
      get: () => {
        if (body === undefined) socketBodies.set((body = webStreamOf(raw.req)), raw.req);
        return body;
      },
      configurable: true,
    });
    const context: RequestContext = { ownerId };
    this.contexts.set(request, context);
    let response = await this.tus.handleWeb(request);
    if (response.status >= 400) {
      const refusal = context.refusal ?? (await tusRefusal(response));
      const rendered = render(refusal);
      const headers = new Headers(response.headers);
      headers.delete("content-length");
      headers.set("content-type", "application/json; charset=utf-8");
      for (const [name, value] of Object.entries(rendered.headers ?? {})) headers.set(name, value);
      response = new Response(rendered.body, { status: refusal.statusCode, headers });
    } else if (response.headers.has("upload-expires")) {
      // A byte arrived just now: the idle lifetime runs from here.
      response.headers.set("upload-expires", new Date(Date.now() + this.store.getExpiration()).toUTCString());
    }
    response.headers.set("cache-control", "no-store");
    await sendNodeResponse(raw.res, response);
  }

  /**
   * The media a finished upload of this member's became, for a client whose last answer was lost
   * (a reload just after the last byte): its HEAD is answered with it (`finishedHeaders`) instead of
   * "not found", which would start the upload again and make a second media. Kept as long as a
   * partial upload (the sweep removes the record), never anyone else's.
   */
  async finishedMedia(id: string, ownerId: string): Promise<FinishedUpload | undefined> {
    if (!uploadIdPattern.test(id)) return undefined;
    try {
      const record = JSON.parse(await fsp.readFile(this.finishedRecord(id), "utf8")) as Record<string, unknown>;
      const { owner, media, length } = record;
      return owner === ownerId && typeof media === "string" && typeof length === "number" ? { owner, media, length } : undefined;
    } catch {
      return undefined;
    }
  }

  private finishedRecord(id: string): string {
    return `${this.store.dataFile(id)}.finished`;
  }

  private async recordFinished(id: string, finished: FinishedUpload): Promise<void> {
    await fsp.writeFile(this.finishedRecord(id), JSON.stringify(finished), { mode: 0o600 }).catch((error: unknown) => {
      this.deps.log.warn({ err: error, uploadId: id }, "could not record a finished upload's media");
    });
  }

  /** Removes uploads without progress for the idle lifetime. Returns how many. */
  sweepExpired(): Promise<number> {
    return this.store.deleteExpired();
  }

  private context(request: Request): RequestContext {
    const context = this.contexts.get(request);
    if (!context) throw new Error("a tus request reached the server without its member");
    return context;
  }

  /**
   * The last byte arrived. The upload is claimed first (its data file renamed away, its
   * description removed), so a second completion of the same id finds nothing and cannot make a
   * second photo; then the port takes the file, and the file goes whatever the port answered.
   */
  private async finish(
    request: Request,
    upload: Upload,
  ): Promise<{ status_code?: number; headers?: Record<string, string>; body: string }> {
    const ownerId = upload.metadata?.[ownerKey];
    if (typeof ownerId !== "string" || ownerId !== this.context(request).ownerId) throw new AppError("upload_not_found");
    const claimed = `${this.store.dataFile(upload.id)}.completing`;
    try {
      await fsp.rename(this.store.dataFile(upload.id), claimed);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") throw new AppError("upload_not_found");
      throw error;
    }
    try {
      await this.store.configstore.delete(upload.id).catch((error: unknown) => {
        this.deps.log.warn({ err: error, uploadId: upload.id }, "could not remove a finished upload's description");
      });
      const photo = await this.deps.complete({
        ownerId,
        file: claimed,
        fileName: upload.metadata?.filename ?? "upload",
        size: upload.size ?? upload.offset,
      });
      if (request.method === "POST") this.store.completedAtCreation.set(upload.id, upload);
      await this.recordFinished(upload.id, { owner: ownerId, media: photo.id, length: upload.size ?? upload.offset });
      return {
        // A PATCH's answer is 200 with the Photo (tus-js-client reads 2xx and Upload-Offset, and
        // hands the body to onSuccess); a creation that carried the whole file stays 201, with its Location.
        ...(request.method === "PATCH" ? { status_code: 200 } : {}),
        headers: { "Content-Type": "application/json; charset=utf-8" },
        body: JSON.stringify(photo),
      };
    } finally {
      await fsp.rm(claimed, { force: true });
    }
  }
}

/** What a finished upload became: its member, its media's id, and its length. */
export interface FinishedUpload {
  owner: string;
  media: string;
  length: number;
}

/** The answer to a HEAD of a finished upload: all of it arrived, and the media it became. */
export function finishedHeaders(finished: FinishedUpload): Record<string, string> {
  return {
    "tus-resumable": "1.0.0",
    "upload-offset": String(finished.length),
    "upload-length": String(finished.length),
    [finishedUploadMediaHeader]: finished.media,
    "cache-control": "no-store",
  };
}

/** The socket behind each request body handed to the tus server. */
const socketBodies = new WeakMap<ReadableStream, IncomingMessage>();

type StoreWriter = (
  body: ReadableStream | null,
  upload: Upload,
  maxBytes: number,
  context: CancellationContext,
) => Promise<number>;

/**
 * The creation and PATCH handlers write a body to the store by piping the request's socket
 * stream through tus's size limiter, as tus's own `writeToStore` does with the web stream (the
 * same handling of a client that goes away: what arrived is kept; of an error: tus's ABORTED).
 */
function readSocketBodies(tus: Server, store: PartialUploadStore): void {
  for (const handler of [tus.handlers.PATCH, tus.handlers.POST]) {
    const writer = handler as unknown as { writeToStore: StoreWriter };
    const tusWrite = writer.writeToStore.bind(handler);
    writer.writeToStore = async (body, upload, maxBytes, context) => {
      const socket = body ? socketBodies.get(body) : undefined;
      if (!socket) return tusWrite(body, upload, maxBytes, context);
      if (context.signal.aborted) throw abortedError();
      const limited = new StreamLimiter(maxBytes);
      let sourceError: unknown;
      const onSourceError = (error: unknown) => {
        sourceError = error;
        socket.unpipe(limited);
        if (!context.signal.aborted) limited.destroy(error instanceof Error ? error : undefined);
      };
      // The client went away: what arrived so far is written, and the upload's offset says so.
      const onAbort = () => {
        socket.unpipe(limited);
        if (!limited.destroyed) limited.end();
      };
      socket.on("error", onSourceError);
      context.signal.addEventListener("abort", onAbort, { once: true });
      try {
        socket.pipe(limited);
        return await store.write(limited, upload.id, upload.offset);
      } catch (error) {
        socket.unpipe(limited);
        const aborted =
          (sourceError !== undefined && error === sourceError) || (error instanceof Error && error.name === "AbortError");
        throw aborted ? abortedError() : error;
      } finally {
        socket.off("error", onSourceError);
        context.signal.removeEventListener("abort", onAbort);
      }
    };
  }
}

/** tus's answer to a request whose client went away (or whose lock another request took), as an Error. */
function abortedError(): Error {
  return Object.assign(new Error(ERRORS.ABORTED.body), ERRORS.ABORTED);
}

/**
 * A request body as a web stream that hands on the socket's chunks as they are (no copy), with
 * backpressure; it touches the socket only once read (the handlers' writes pipe the socket itself).
 */
function webStreamOf(readable: IncomingMessage): ReadableStream<Uint8Array> {
  let reading = false;
  return new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (!reading) {
          reading = true;
          readable.on("data", (chunk: Buffer) => {
            controller.enqueue(chunk);
            if ((controller.desiredSize ?? 0) <= 0) readable.pause();
          });
          readable.once("end", () => controller.close());
          readable.once("error", (error) => controller.error(error));
        }
        readable.resume();
      },
      cancel(reason) {
        readable.destroy(reason instanceof Error ? reason : undefined);
      },
    },
    // Nothing is pulled before a reader asks: until then the socket is the handlers' to pipe.
    { highWaterMark: 0 },
  );
}

/**
 * `Upload-Metadata`: comma-separated `key base64value` pairs. Parsed here as tus does, so that a
 * malformed header is the app's validation error and not tus's plain text.
 */
function parseMetadata(header: string | string[] | undefined): Record<string, string | null> {
  if (header === undefined) return {};
  if (typeof header !== "string" || header.length > 2048) throw metadataRefused();
  const metadata: Record<string, string | null> = {};
  for (const pair of header.split(",")) {
    const [key, value, ...rest] = pair.trim().split(" ");
    if (!key || !/^[\x21-\x7e]+$/.test(key) || key in metadata || rest.length > 0) throw metadataRefused();
    if (value !== undefined && (value.length % 4 !== 0 || !/^[\d+/A-Za-z]*={0,2}$/.test(value))) throw metadataRefused();
    metadata[key] = value === undefined ? null : Buffer.from(value, "base64").toString("utf8");
  }
  return metadata;
}

function metadataRefused(): AppError {
  return new AppError("validation_failed", {
    message: "Upload-Metadata must be comma-separated pairs of a key and a base64 value.",
    details: [{ path: "Upload-Metadata", message: "is not valid" }],
  });
}

/** A refusal the tus server wrote itself (plain text), as the app's error by its status. */
async function tusRefusal(response: Response): Promise<AppError> {
  const said = (await response.text()).trim();
  switch (response.status) {
    case ERRORS.FILE_NOT_FOUND.status_code:
      return new AppError("upload_not_found");
    case ERRORS.FILE_NO_LONGER_EXISTS.status_code:
      return new AppError("upload_not_found", { status: 410 });
    case ERRORS.INVALID_OFFSET.status_code:
      return new AppError("upload_offset_conflict");
    case 413:
      return new AppError("request_entity_too_large");
    case 412:
      return new AppError("bad_request", { status: 412, message: "Send Tus-Resumable: 1.0.0 with every request." });
    default:
      return response.status < 500
        ? new AppError("bad_request", { status: response.status, ...(said ? { message: said } : {}) })
        : new AppError("unexpected_failure");
  }
}

/** "2 GB", "500 MB": the limit as a person reads it (decimal units, as devices show file sizes). */
export function sizeInWords(bytes: number): string {
  const units = [
    [1e9, "GB"],
    [1e6, "MB"],
    [1e3, "kB"],
  ] as const;
  for (const [unit, name] of units) if (bytes >= unit) return `${Math.round((bytes / unit) * 10) / 10} ${name}`;
  return `${bytes} bytes`;
}
