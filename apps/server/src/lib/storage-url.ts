import path from "node:path";
import { fileURLToPath } from "node:url";
import { validateBlobKey } from "./blob-key";

export type StorageLocation =
  | { kind: "local"; rootDir: string }
  | {
      kind: "s3";
      bucket: string;
      /** Folder inside the bucket, from the URL's path; undefined for the bucket root. */
      prefix: string | undefined;
      endpoint: string | undefined;
      /** Undefined when the URL has none; the storage then falls back to AWS_REGION. */
      region: string | undefined;
      forcePathStyle: boolean;
      accessKeyId: string | undefined;
      secretAccessKey: string | undefined;
    };

/** Its message never repeats the URL, which may hold a secret key. */
export class StorageUrlError extends Error {
  constructor(reason: string) {
    super(`Invalid storage URL: ${reason}`);
    this.name = "StorageUrlError";
  }
}

const S3_PARAMETERS = new Set(["endpoint", "region", "forcePathStyle", "path_style"]);
// Bucket naming rules of AWS (and of every compatible server worth using).
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/**
 * Accepts `file:///absolute/folder` and
 * `s3://[key:secret@]bucket[/prefix]?endpoint=http://host:9000&region=…&forcePathStyle=true`
 * (`path_style` is an alias). Path-style addressing defaults to on when an endpoint is given,
 * since self-hosted servers rarely have per-bucket host names.
 */
export function parseStorageUrl(storageUrl: string): StorageLocation {
  let url: URL;
  try {
    url = new URL(storageUrl);
  } catch {
    throw new StorageUrlError("not a URL; expected file:///absolute/folder or s3://bucket?endpoint=…&region=…");
  }
  switch (url.protocol) {
    case "file:":
      return parseFileUrl(url);
    case "s3:":
      return parseS3Url(url);
    default:
      throw new StorageUrlError(`unsupported scheme "${url.protocol}"; use file: or s3:`);
  }
}

function parseFileUrl(url: URL): StorageLocation {
  if (url.search !== "" || url.hash !== "") throw new StorageUrlError("a file: URL takes no query or fragment");
  let rootDir: string;
  try {
    rootDir = fileURLToPath(url);
  } catch (error) {
    throw new StorageUrlError(`file: URL must be file:///absolute/folder (${(error as Error).message})`);
  }
  if (rootDir === path.parse(rootDir).root) throw new StorageUrlError("file: URL must name a folder, not the file system root");
  return { kind: "local", rootDir: rootDir.replace(/[\\/]+$/, "") };
}

function parseS3Url(url: URL): StorageLocation {
  const bucket = url.hostname;
  if (!BUCKET_NAME.test(bucket)) {
    throw new StorageUrlError(`"${bucket}" is not a valid bucket name (3–63 lower-case letters, digits, dots or hyphens)`);
  }
  if (url.port !== "") throw new StorageUrlError("an s3: URL takes no port; put the server in ?endpoint=http://host:port");
  if (url.hash !== "") throw new StorageUrlError("an s3: URL takes no fragment");

  const params = url.searchParams;
  for (const name of new Set(params.keys())) {
    if (!S3_PARAMETERS.has(name)) {
      throw new StorageUrlError(`unknown s3: parameter "${name}"; known ones are ${[...S3_PARAMETERS].join(", ")}`);
    }
    if (params.getAll(name).length > 1) throw new StorageUrlError(`parameter "${name}" is given more than once`);
  }
  if (params.has("forcePathStyle") && params.has("path_style")) {
    throw new StorageUrlError('give either "forcePathStyle" or its alias "path_style", not both');
  }

  const endpoint = params.get("endpoint") ?? undefined;
  if (endpoint !== undefined && !isHttpUrl(endpoint)) {
    throw new StorageUrlError("endpoint must be an http:// or https:// URL, such as http://127.0.0.1:9000");
  }
  const pathStyle = params.get("forcePathStyle") ?? params.get("path_style") ?? undefined;
  const region = params.get("region") ?? undefined;
  if (region === "") throw new StorageUrlError("region is empty");

  const accessKeyId = url.username === "" ? undefined : decodeUrlPart(url.username, "access key");
  const secretAccessKey = url.password === "" ? undefined : decodeUrlPart(url.password, "secret");
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new StorageUrlError("give both the access key and the secret (s3://key:secret@bucket) or neither");
  }

  return {
    kind: "s3",
    bucket,
    prefix: parsePrefix(url.pathname),
    endpoint,
    region,
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : parseBoolean(pathStyle),
    accessKeyId,
    secretAccessKey,
  };
}

function parsePrefix(pathname: string): string | undefined {
  const prefix = decodeUrlPart(pathname, "path").replace(/^\/+|\/+$/g, "");
  if (prefix === "") return undefined;
  try {
    validateBlobKey(prefix);
  } catch (error) {
    throw new StorageUrlError(`the path after the bucket is not a usable folder: ${(error as Error).message}`);
  }
  return prefix;
}

function decodeUrlPart(value: string, what: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    throw new StorageUrlError(`the ${what} has a malformed %-escape`);
  }
}

function parseBoolean(value: string): boolean {
  if (value === "true" || value === "1") return true;
  if (value === "false" || value === "0") return false;
  throw new StorageUrlError(`forcePathStyle must be true or false, not "${value}"`);
}

function isHttpUrl(value: string): boolean {
  try {
    const { protocol } = new URL(value);
    return protocol === "http:" || protocol === "https:";
  } catch {
    return false;
  }
}
