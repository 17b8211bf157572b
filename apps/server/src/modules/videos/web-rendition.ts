import { rename, rm } from "node:fs/promises";
import path from "node:path";
import { ownedTempName } from "../../lib/temp-files";
import { videoInputArgs, type VideoInfo } from "./video-inspection";
import { runTool, type VideoTools } from "./video-tools";

/** Why an original cannot be played as it is in every current browser; empty when it can. */
export type RenditionReason = "container" | "video_codec" | "audio_codec" | "size" | "bit_rate";

/** At most 1080p: 1920 × 1080, or 1080 × 1920 upright. */
const maxLongSide = 1920;
const maxShortSide = 1080;
/**
 * Above this a file stutters on a phone's connection; a phone's own 1080p H.264 is 10–17 Mbit/s,
 * 4K well above. The rendition's cap (`-maxrate`) is half of it.
 */
export const maxPlayableBitRate = 20_000_000;

// H.264 in 8-bit 4:2:0 plays everywhere; High 10 or 4:2:2 H.264 does not (Chrome and Firefox decode neither).
const PLAYABLE_PIXEL_FORMATS = new Set(["yuv420p", "yuvj420p"]);

/**
 * Whether the original needs a web rendition, and why. Plays as it is: H.264 (8-bit 4:2:0) in MP4
 * or MOV with AAC or no sound; VP9 (8-bit) in WebM with Opus, Vorbis or no sound; at most 1080p and
 * 20 Mbit/s. Everything else (HEVC, which only Safari plays; AV1, which Safari plays only on recent
 * hardware; MOV with PCM, ALAC or AC-3 sound; 4K; Matroska) gets one.
 */
export function webRenditionReasons(
  info: Pick<VideoInfo, "container" | "width" | "height" | "bitRate" | "video" | "audio">,
): RenditionReason[] {
  const reasons: RenditionReason[] = [];
  // Matroska (.mkv) plays in Chrome alone.
  if (info.container === "mkv") reasons.push("container");
  const isoFile = info.container === "mp4" || info.container === "mov";
  const eightBit420 = info.video.pixelFormat !== null && PLAYABLE_PIXEL_FORMATS.has(info.video.pixelFormat);
  const playableVideo =
    eightBit420 && ((isoFile && info.video.codec === "h264") || (info.container === "webm" && info.video.codec === "vp9"));
  if (!playableVideo) reasons.push("video_codec");
  const audio = info.audio?.codec;
  const playableAudio =
    audio === undefined || (isoFile ? audio === "aac" : info.container === "webm" && (audio === "opus" || audio === "vorbis"));
  if (!playableAudio) reasons.push("audio_codec");
  const [long, short] = [Math.max(info.width, info.height), Math.min(info.width, info.height)];
  if (long > maxLongSide || short > maxShortSide) reasons.push("size");
  if (info.bitRate !== null && info.bitRate > maxPlayableBitRate) reasons.push("bit_rate");
  return reasons;
}

/** The rendition's size: the original's, fitted into 1080p, in even numbers (H.264 4:2:0 needs them). */
export function renditionSize(width: number, height: number): { width: number; height: number } {
  const landscape = width >= height;
  const scale = Math.min(1, (landscape ? maxLongSide : maxShortSide) / width, (landscape ? maxShortSide : maxLongSide) / height);
  const even = (value: number) => Math.max(2, 2 * Math.round((value * scale) / 2));
  return { width: even(width), height: even(height) };
}

/**
 * The one piece of the original's metadata a served copy keeps (ADR 0064): when it was filmed, as
 * the container's `creation_time` (UTC; MP4 and WebM both hold it), so a downloaded video sorts by
 * its date. Nothing without a capture date.
 */
function captureDateArgs(takenAt: string | null | undefined): string[] {
  const instant = takenAt ? Date.parse(takenAt) : Number.NaN;
  return Number.isFinite(instant) ? ["-metadata", `creation_time=${new Date(instant).toISOString()}`] : [];
}

/** ffmpeg's arguments for the web rendition of `file`, written to `output` (see `transcodeWebRendition`). */
export function webRenditionArgs(
  file: string,
  info: Pick<VideoInfo, "container" | "width" | "height" | "audio"> & Partial<Pick<VideoInfo, "takenAt">>,
  output: string,
): string[] {
  const { width, height } = renditionSize(info.width, info.height);
  const audio =
    info.audio === null
      ? ["-an"]
      : info.audio.codec === "aac" && (info.audio.channels ?? 2) <= 2
        ? ["-map", "0:a:0", "-c:a", "copy"]
        : ["-map", "0:a:0", "-c:a", "aac", "-b:a", "128k", "-ac", "2"];
  return [
    "-nostdin",
    "-v",
    "error",
    "-nostats",
    ...videoInputArgs(file, info.container),
    "-map",
    "0:v:0",
    ...audio,
    "-sn",
    "-dn",
    "-map_metadata",
    "-1",
    ...captureDateArgs(info.takenAt),
    "-map_chapters",
    "-1",
    "-vf",
    `scale=${width}:${height}:flags=bicubic,setsar=1,format=yuv420p`,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    "-profile:v",
    "high",
    "-maxrate",
    `${maxPlayableBitRate / 2}`,
    "-bufsize",
    `${maxPlayableBitRate}`,
    "-movflags",
    "+faststart",
    "-progress",
    "pipe:1",
    "-f",
    "mp4",
    `file:${output}`,
  ];
}

export interface TranscodeOptions {
  /** Default: ten times the video's duration, and at least a minute. */
  timeoutMs?: number;
  signal?: AbortSignal | undefined;
  /** From 0 to 1, as ffmpeg reports its way through the video. */
  onProgress?: (fraction: number) => void;
}

/**
 * Writes the web rendition of an inspected video to `target`: H.264 (High, 8-bit 4:2:0, CRF 23,
 * at most 10 Mbit/s) and AAC (the original's AAC copied, anything else encoded at 128 kbit/s
 * stereo) in MP4 with the index first (+faststart: playback starts before the whole file has
 * arrived), upright, at most 1080p, without the original's metadata (place, device) but its capture date,
 * chapters or subtitle and data streams. ffmpeg runs at a lower CPU priority than requests,
 * writing a temporary file beside `target` that is renamed into place only once complete:
 * `target` is either absent or whole. Throws `video_timeout` or the abort's reason; another
 * failure of ffmpeg is an Error naming its last words.
 */
export async function transcodeWebRendition(
  file: string,
  info: Pick<VideoInfo, "container" | "width" | "height" | "durationSeconds" | "audio"> & Partial<Pick<VideoInfo, "takenAt">>,
  target: string,
  tools: VideoTools,
  options: TranscodeOptions = {},
): Promise<void> {
  await writeThroughTemp(
    target,
    ".rendition.mp4",
    (temp) => webRenditionArgs(file, info, temp),
    info.durationSeconds,
    tools,
    options,
  );
}

/**
 * The copy served of an original that plays as it is (no `webRenditionReasons`): the same video
 * and sound streams, copied, not re-encoded (seconds even for a long clip), without the original's
 * metadata (place, device) but its capture date, chapters or other streams; MP4 and MOV become a fast-start MP4,
 * WebM stays WebM. The rotation stays with the stream. An original is never served as uploaded
 * (ADR 0017's rule for photos). Written like the rendition: a temporary file renamed into place.
 */
export async function remuxForWeb(
  file: string,
  info: Pick<VideoInfo, "container" | "durationSeconds" | "audio"> & Partial<Pick<VideoInfo, "takenAt">>,
  target: string,
  tools: VideoTools,
  options: TranscodeOptions = {},
): Promise<{ contentType: "video/mp4" | "video/webm" }> {
  const webm = info.container === "webm";
  await writeThroughTemp(
    target,
    webm ? ".remux.webm" : ".remux.mp4",
    (temp) => [
      "-nostdin",
      "-v",
      "error",
      "-nostats",
      ...videoInputArgs(file, info.container),
      "-map",
      "0:v:0",
      ...(info.audio === null ? ["-an"] : ["-map", "0:a:0"]),
      "-c",
      "copy",
      "-sn",
      "-dn",
      "-map_metadata",
      "-1",
      ...captureDateArgs(info.takenAt),
      "-map_chapters",
      "-1",
      ...(webm ? ["-f", "webm"] : ["-movflags", "+faststart", "-f", "mp4"]),
      "-progress",
      "pipe:1",
      `file:${temp}`,
    ],
    info.durationSeconds,
    tools,
    options,
  );
  return { contentType: webm ? "video/webm" : "video/mp4" };
}

/** Runs ffmpeg at low priority into a temporary file beside `target`, renamed into place once whole. */
async function writeThroughTemp(
  target: string,
  suffix: string,
  argsFor: (temp: string) => string[],
  durationSeconds: number,
  tools: VideoTools,
  options: TranscodeOptions,
): Promise<void> {
  const temp = path.join(path.dirname(target), ownedTempName(suffix));
  const durationUs = durationSeconds * 1e6;
  let pending = "";
  try {
    const result = await runTool(tools.ffmpeg, argsFor(temp), {
      timeoutMs: options.timeoutMs ?? Math.max(60_000, durationSeconds * 10_000),
      signal: options.signal,
      lowPriority: true,
      onStdout: (chunk) => {
        if (!options.onProgress) return;
        pending += chunk.toString("latin1");
        const lines = pending.split("\n");
        pending = lines.pop() ?? "";
        for (const line of lines) {
          // ffmpeg 4 names microseconds out_time_ms; later versions also write out_time_us.
          const match = /^out_time_(?:ms|us)=(\d+)$/.exec(line.trim());
          if (match && durationUs > 0) options.onProgress(Math.min(1, Number(match[1]) / durationUs));
        }
      },
    });
    if (result.code !== 0) {
      throw new Error(`ffmpeg could not write the web copy (exit ${result.code}): ${result.stderr.trim().slice(-500)}`);
    }
    await rename(temp, target);
    options.onProgress?.(1);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
}
