import { open, stat } from "node:fs/promises";
import path from "node:path";
import type { GeoPoint } from "@memory-box/contract";
import { AppError } from "../../errors";
import { parseIso6709 } from "../photos";
import { runTool, type VideoTools } from "./video-tools";

/**
 * The checks a video goes through before anything of it is kept, cheapest first: its size, its
 * first bytes, its name, what ffprobe reads in its header, and then two decodes that prove the
 * header right: the first frame (the stream decodes) and the last second (the file is whole).
 * Every refusal is an AppError with a stable code; nothing here writes anywhere.
 */

export type VideoContainer = "mp4" | "mov" | "webm" | "mkv";

export interface VideoInfo {
  container: VideoContainer;
  /** Of the original, e.g. "video/quicktime". */
  contentType: string;
  /** Of the original, without a dot, e.g. "mov". */
  extension: string;
  bytes: number;
  durationSeconds: number;
  /** As a browser shows it: the pixel aspect ratio and the rotation applied. */
  width: number;
  height: number;
  /** The rotation the file asks for, in degrees (0, 90, 180 or 270), as ffprobe reports it. */
  rotation: number;
  video: {
    codec: string;
    profile: string | null;
    pixelFormat: string | null;
    /** Frames per second, when the header says. */
    frameRate: number | null;
  };
  /** The first audio stream, or null for a silent video. */
  audio: { codec: string; channels: number | null } | null;
  /** The whole file's bits per second, when known. */
  bitRate: number | null;
  /** When it was filmed: "YYYY-MM-DDTHH:MM:SS±HH:MM" (UTC as +00:00 when that is all the file says), or null. */
  takenAt: string | null;
  /** Where it was filmed, from the container's ISO 6709 location tag; null when absent or not a valid position. */
  location: GeoPoint | null;
}

export interface InspectOptions {
  /** The client's file name; its extension, if it has one, must agree with the content. */
  name?: string | undefined;
  maxBytes: number;
  maxSeconds: number;
  /** For each run of ffprobe or ffmpeg; default 30 s. */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
}

/** Longest side, and pixels of a frame, above which a header is taken for a lie: 8K is 7680 × 4320. */
export const maxVideoSide = 8192;
export const maxVideoPixels = 8192 * 4352;

const defaultTimeoutMs = 30_000;

type Family = "isobmff" | "matroska";

const CONTAINERS: Record<VideoContainer, { family: Family; contentType: string; extension: string; demuxer: string }> = {
  mp4: { family: "isobmff", contentType: "video/mp4", extension: "mp4", demuxer: "mov" },
  mov: { family: "isobmff", contentType: "video/quicktime", extension: "mov", demuxer: "mov" },
  webm: { family: "matroska", contentType: "video/webm", extension: "webm", demuxer: "matroska" },
  mkv: { family: "matroska", contentType: "video/x-matroska", extension: "mkv", demuxer: "matroska" },
};

/** File name extensions of videos, by the family of container they promise. */
const EXTENSIONS: Record<string, Family> = {
  mp4: "isobmff",
  m4v: "isobmff",
  mov: "isobmff",
  qt: "isobmff",
  webm: "matroska",
  mkv: "matroska",
};

// Brands of ISO-BMFF files that are still images or sound, which the photo pipeline or nobody takes.
const NOT_VIDEO_BRANDS = new Set([
  "heic",
  "heix",
  "hevc",
  "hevx",
  "heim",
  "heis",
  "mif1",
  "msf1",
  "avif",
  "avis",
  "M4A ",
  "M4B ",
  "M4P ",
]);
// Old QuickTime files start with one of these boxes instead of ftyp.
const QUICKTIME_FIRST_BOXES = new Set(["moov", "mdat", "wide", "free", "skip", "pnot"]);
const EBML_MAGIC = [0x1a, 0x45, 0xdf, 0xa3];

/** The container by magic bytes alone (the first 64 bytes are enough); anything else is null. */
export function detectVideoContainer(head: Uint8Array): VideoContainer | null {
  const ascii = (start: number, end: number) => Buffer.from(head.subarray(start, end)).toString("latin1");
  if (EBML_MAGIC.every((byte, i) => head[i] === byte)) {
    // The EBML header's DocType comes within its first bytes: "webm" or "matroska".
    return ascii(0, head.length).includes("webm") ? "webm" : "mkv";
  }
  if (head.length < 12) return null;
  const box = ascii(4, 8);
  if (box === "ftyp") {
    const brand = ascii(8, 12);
    if (NOT_VIDEO_BRANDS.has(brand)) return null;
    return brand === "qt  " ? "mov" : "mp4";
  }
  return QUICKTIME_FIRST_BOXES.has(box) ? "mov" : null;
}

/**
 * Inspects a received video file. Throws `video_empty`, `video_too_large`, `unsupported_video_type`,
 * `video_extension_mismatch`, `corrupt_video` (damaged or incomplete), `video_too_long`,
 * `video_dimensions_unsupported`, `undecodable_video` or `video_timeout`.
 */
export async function inspectVideo(file: string, tools: VideoTools, options: InspectOptions): Promise<VideoInfo> {
  const timeoutMs = options.timeoutMs ?? defaultTimeoutMs;
  const { size } = await stat(file);
  if (size === 0) throw new AppError("video_empty");
  if (size > options.maxBytes) throw new AppError("video_too_large");

  const container = detectVideoContainer(await readHead(file, 64));
  if (container === null) throw new AppError("unsupported_video_type");
  const { family, demuxer } = CONTAINERS[container];
  // A name without an extension promises nothing; any other extension must be of this family.
  const extension = path
    .extname(options.name ?? "")
    .slice(1)
    .toLowerCase();
  if (extension !== "" && EXTENSIONS[extension] !== family) throw new AppError("video_extension_mismatch");

  const probe = await probeFile(file, demuxer, tools, { timeoutMs, signal: options.signal });
  const video = probe.streams.find((stream) => stream.codec_type === "video" && stream.disposition?.attached_pic !== 1);
  if (video === undefined) throw new AppError("unsupported_video_type");
  const audio = probe.streams.find((stream) => stream.codec_type === "audio") ?? null;

  const durationSeconds = Number(probe.format.duration ?? video.duration);
  if (!Number.isFinite(durationSeconds) || durationSeconds <= 0) throw new AppError("corrupt_video");
  if (durationSeconds > options.maxSeconds) throw new AppError("video_too_long");

  const rotation = rotationOf(video);
  const { width, height } = displaySize(video, rotation);
  const codedWidth = video.width ?? 0;
  const codedHeight = video.height ?? 0;
  if (codedWidth < 1 || codedHeight < 1) throw new AppError("corrupt_video");
  if (Math.max(width, height, codedWidth, codedHeight) > maxVideoSide || codedWidth * codedHeight > maxVideoPixels) {
    throw new AppError("video_dimensions_unsupported");
  }

  // The header said what it said; decoding proves it. Both at once: each is one short process.
  const [first, tail] = await Promise.all([
    decodeFrames(file, demuxer, tools, { from: 0, frames: 1, timeoutMs, signal: options.signal }),
    decodeFrames(file, demuxer, tools, { from: Math.max(0, durationSeconds - 1), timeoutMs, signal: options.signal }),
  ]);
  if (first.frames === 0) throw new AppError("undecodable_video", { cause: new Error(first.stderr) });
  if (tail.frames === 0 || READ_FAILURE.test(tail.stderr)) throw new AppError("corrupt_video", { cause: new Error(tail.stderr) });

  const numberOrNull = (value: unknown) => (Number.isFinite(Number(value)) && value !== undefined ? Number(value) : null);
  return {
    container,
    contentType: CONTAINERS[container].contentType,
    extension: CONTAINERS[container].extension,
    bytes: size,
    durationSeconds,
    width,
    height,
    rotation,
    video: {
      codec: video.codec_name ?? "unknown",
      profile: video.profile ?? null,
      pixelFormat: video.pix_fmt ?? null,
      frameRate: frameRateOf(video.avg_frame_rate) ?? frameRateOf(video.r_frame_rate),
    },
    audio: audio === null ? null : { codec: audio.codec_name ?? "unknown", channels: numberOrNull(audio.channels) },
    bitRate: numberOrNull(probe.format.bit_rate),
    takenAt: captureDate(probe.format.tags, video.tags),
    location: filmedAt(probe.format.tags, video.tags),
  };
}

// What ffmpeg says when the data a header points at is not in the file.
const READ_FAILURE = /partial file|read error|invalid data found|end of file/i;

async function readHead(file: string, bytes: number): Promise<Buffer> {
  const handle = await open(file, "r");
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(bytes), 0, bytes, 0);
    return buffer.subarray(0, bytesRead);
  } finally {
    await handle.close();
  }
}

interface ProbeStream {
  codec_type?: string;
  codec_name?: string;
  profile?: string;
  pix_fmt?: string;
  width?: number;
  height?: number;
  sample_aspect_ratio?: string;
  avg_frame_rate?: string;
  r_frame_rate?: string;
  duration?: string;
  channels?: number;
  disposition?: { attached_pic?: number };
  tags?: Record<string, string>;
  side_data_list?: { rotation?: number }[];
}

interface Probe {
  streams: ProbeStream[];
  format: { duration?: string; bit_rate?: string; tags?: Record<string, string> };
}

/**
 * These arguments go first on every run: only local files are opened (no network, no other
 * protocol a crafted playlist or reference movie could name), and the demuxer is the one the magic
 * bytes chose, so nothing is guessed from content again.
 */
function inputArgs(file: string, demuxer: string): string[] {
  return ["-protocol_whitelist", "file", "-f", demuxer, "-i", `file:${file}`];
}

/** The input arguments for a video already inspected: its container's demuxer, local files only. */
export function videoInputArgs(file: string, container: VideoContainer): string[] {
  return inputArgs(file, CONTAINERS[container].demuxer);
}

async function probeFile(
  file: string,
  demuxer: string,
  tools: VideoTools,
  run: { timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<Probe> {
  const result = await runTool(
    tools.ffprobe,
    ["-v", "error", "-print_format", "json", "-show_format", "-show_streams", ...inputArgs(file, demuxer)],
    { ...run, maxStdoutBytes: 4 * 1024 * 1024 },
  );
  let probe: Partial<Probe> | undefined;
  try {
    probe = JSON.parse(result.stdout.toString("utf8")) as Partial<Probe>;
  } catch {
    probe = undefined;
  }
  if (result.code !== 0 || !probe?.format || !Array.isArray(probe.streams)) {
    throw new AppError("corrupt_video", { cause: new Error(result.stderr) });
  }
  return probe as Probe;
}

/**
 * Decodes video frames from `from` seconds on, scaled to 2 × 2 pixels, and counts them: all of
 * them to the end, or at most `frames`. ffmpeg applies the rotation on its own, as it does for
 * the poster and the web rendition.
 */
async function decodeFrames(
  file: string,
  demuxer: string,
  tools: VideoTools,
  run: { from: number; frames?: number; timeoutMs: number; signal?: AbortSignal | undefined },
): Promise<{ frames: number; stderr: string }> {
  const bytesPerFrame = 2 * 2 * 3;
  const result = await runTool(
    tools.ffmpeg,
    [
      "-nostdin",
      "-v",
      "error",
      "-ss",
      run.from.toFixed(3),
      ...inputArgs(file, demuxer),
      "-map",
      "0:v:0",
      ...(run.frames === undefined ? [] : ["-frames:v", String(run.frames)]),
      "-vf",
      "scale=2:2",
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ],
    { timeoutMs: run.timeoutMs, signal: run.signal },
  );
  return { frames: Math.floor(result.stdout.length / bytesPerFrame), stderr: result.stderr };
}

function rotationOf(stream: ProbeStream): number {
  const degrees =
    stream.side_data_list?.find((data) => typeof data.rotation === "number")?.rotation ?? Number(stream.tags?.rotate ?? 0);
  if (!Number.isFinite(degrees)) return 0;
  return (((Math.round(degrees / 90) * 90) % 360) + 360) % 360;
}

/** The size a player shows: non-square pixels stretched, a quarter turn swapping the sides. */
function displaySize(stream: ProbeStream, rotation: number): { width: number; height: number } {
  let width = stream.width ?? 0;
  const height = stream.height ?? 0;
  const [num, den] = (stream.sample_aspect_ratio ?? "1:1").split(":").map(Number);
  if (num && den && num !== den) width = Math.round((width * num) / den);
  return rotation % 180 === 0 ? { width, height } : { width: height, height: width };
}

function frameRateOf(ratio: string | undefined): number | null {
  const [num, den] = (ratio ?? "").split("/").map(Number);
  return num && den ? Math.round((num / den) * 1000) / 1000 : null;
}

/**
 * Phones write the local time with its offset (`com.apple.quicktime.creationdate`,
 * "2024-06-01T12:20:30+0200"); most writers only `creation_time` in UTC. Muxers that write
 * nothing leave 0, which reads as 1904 or 1970: no date.
 */
function captureDate(...tagSets: (Record<string, string> | undefined)[]): string | null {
  for (const tags of tagSets) {
    const local = tags?.["com.apple.quicktime.creationdate"];
    const match =
      local === undefined ? null : /^(\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2})(?:\.\d+)?([+-]\d{2}):?(\d{2})$/.exec(local);
    if (match) return `${match[1]}${match[2]}:${match[3]}`;
  }
  for (const tags of tagSets) {
    const utc = tags?.creation_time;
    const instant = utc === undefined ? Number.NaN : Date.parse(utc);
    if (Number.isFinite(instant) && new Date(instant).getUTCFullYear() > 1970) {
      return `${new Date(instant).toISOString().slice(0, 19)}+00:00`;
    }
  }
  return null;
}

// Where phones and FFmpeg write a position: QuickTime's metadata key (iPhones), the MP4 `©xyz` atom
// FFmpeg reads as `location` (Android phones), and its language-tagged form.
const locationTags = ["com.apple.quicktime.location.ISO6709", "location", "location-eng"];

/** The first valid ISO 6709 position in the container's tags, then the video stream's; null when none is. */
function filmedAt(...tagSets: (Record<string, string> | undefined)[]): GeoPoint | null {
  for (const tags of tagSets) {
    for (const key of locationTags) {
      const point = parseIso6709(tags?.[key]);
      if (point !== null) return point;
    }
  }
  return null;
}
