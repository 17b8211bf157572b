import { AppError } from "../../errors";
import { renderFrameDerivatives, type Derivative } from "../photos";
import { videoInputArgs, type VideoInfo } from "./video-inspection";
import { runTool, type VideoTools } from "./video-tools";

/** A video's still: the photo thumbnail sizes, WebP without metadata, and its ThumbHash. */
export interface VideoPoster {
  /** ThumbHash, base64. */
  placeholder: string;
  /** Longest side at most 400 px, never upscaled. */
  thumbnail: Derivative;
  /** Longest side at most 1600 px, never upscaled. */
  preview: Derivative;
  /** Where in the video the frame was taken, in seconds. */
  atSeconds: number;
}

/** The largest poster: the photo preview's size. */
const posterSide = 1600;
/** One second in, past the black or blurred first frames many clips start with; shorter clips use their first frame. */
const posterAtSeconds = 1;

/**
 * Renders the poster of an inspected video. ffmpeg decodes one frame, upright (it applies the
 * rotation), scaled to fit the preview size with square pixels, as raw RGB: no container, so
 * no metadata of the original can pass; the photo pipeline (sharp) encodes the WebP renditions
 * and the placeholder from those pixels.
 */
export async function renderVideoPoster(
  file: string,
  info: Pick<VideoInfo, "container" | "width" | "height" | "durationSeconds">,
  tools: VideoTools,
  options: { timeoutMs?: number; signal?: AbortSignal | undefined } = {},
): Promise<VideoPoster> {
  const { width, height } = fitInside(info.width, info.height, posterSide);
  let at = info.durationSeconds >= 2 * posterAtSeconds ? posterAtSeconds : 0;
  let pixels = await grabFrame(file, info.container, at, { width, height }, tools, options);
  if (pixels === null && at > 0) {
    // Timestamps that do not start at zero, or a clip shorter than its header says: the first frame then.
    at = 0;
    pixels = await grabFrame(file, info.container, at, { width, height }, tools, options);
  }
  if (pixels === null) throw new AppError("undecodable_video");
  const derivatives = await renderFrameDerivatives(pixels, { width, height, channels: 3 });
  return { ...derivatives, atSeconds: at };
}

/** Scales down to fit `side` (never up), in whole pixels of at least 1. */
export function fitInside(width: number, height: number, side: number): { width: number; height: number } {
  const scale = Math.min(1, side / Math.max(width, height));
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}

async function grabFrame(
  file: string,
  container: VideoInfo["container"],
  atSeconds: number,
  size: { width: number; height: number },
  tools: VideoTools,
  options: { timeoutMs?: number; signal?: AbortSignal | undefined },
): Promise<Buffer | null> {
  const frameBytes = size.width * size.height * 3;
  const result = await runTool(
    tools.ffmpeg,
    [
      "-nostdin",
      "-v",
      "error",
      "-ss",
      atSeconds.toFixed(3),
      ...videoInputArgs(file, container),
      "-map",
      "0:v:0",
      "-frames:v",
      "1",
      "-vf",
      `scale=${size.width}:${size.height}:flags=bicubic,setsar=1`,
      "-f",
      "rawvideo",
      "-pix_fmt",
      "rgb24",
      "pipe:1",
    ],
    { timeoutMs: options.timeoutMs ?? 30_000, signal: options.signal, maxStdoutBytes: frameBytes },
  );
  return result.stdout.length === frameBytes ? result.stdout : null;
}
