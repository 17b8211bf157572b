import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { resolveVideoTools, type VideoTools } from "../src/modules/videos";

const run = promisify(execFile);
let tools: Promise<VideoTools> | undefined;

/** The FFmpeg the server itself uses (ADR 0053), resolved once per worker. */
export function videoTools(): Promise<VideoTools> {
  tools ??= resolveVideoTools();
  return tools;
}

export interface ClipOptions {
  /** Frame size of the test pattern (`WxH`); 160x120 by default. */
  size?: string;
  seconds?: number;
  /** Video codec arguments; H.264, 8-bit 4:2:0, by default. */
  video?: string[];
  /** Sound codec arguments, with a tone; no sound when null. AAC by default. */
  audio?: string[] | null;
  /** Any further output arguments (metadata, container flags). */
  extra?: string[];
}

/**
 * Films a clip of FFmpeg's test pattern (and a tone) into `file`: small and quick to make, so a
 * test makes the clips it needs rather than keeping files in the repository.
 */
export async function filmTestClip(file: string, options: ClipOptions = {}): Promise<void> {
  const { ffmpeg } = await videoTools();
  const { size = "160x120", seconds = 1, extra = [] } = options;
  const video = options.video ?? ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];
  const audio = options.audio === undefined ? ["-c:a", "aac"] : options.audio;
  await run(ffmpeg, [
    ...["-nostdin", "-v", "error", "-y"],
    ...["-f", "lavfi", "-i", `testsrc=size=${size}:rate=25:duration=${seconds}`],
    ...(audio ? ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`] : []),
    ...video,
    ...(audio ?? []),
    ...extra,
    file,
  ]);
}

/** The codecs of a media file's streams, as ffprobe names them (`h264`, `aac`…), in stream order. */
export async function streamCodecs(file: string): Promise<string[]> {
  const { ffprobe } = await videoTools();
  const { stdout } = await run(ffprobe, ["-v", "error", "-show_entries", "stream=codec_name", "-of", "csv=p=0", file]);
  return stdout.trim().split("\n");
}
