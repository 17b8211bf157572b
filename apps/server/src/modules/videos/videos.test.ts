import { execFile } from "node:child_process";
import { copyFile, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AppError } from "../../errors";
import {
  inspectVideo,
  remuxForWeb,
  renderVideoPoster,
  resolveVideoTools,
  runTool,
  transcodeWebRendition,
  webRenditionReasons,
  type VideoTools,
} from ".";

// Clips made once for the whole file by the same ffmpeg the server uses: one second of the test
// pattern and a tone, 160 × 120. The broken ones are those with bytes cut or overwritten.

const run = promisify(execFile);
let tools: VideoTools;
let dir: string;
const clip = (name: string) => path.join(dir, name);
const limits = { maxBytes: 10 * 1024 * 1024, maxSeconds: 600 };
const inspect = (name: string, options: Partial<Parameters<typeof inspectVideo>[2]> = {}) =>
  inspectVideo(clip(name), tools, { ...limits, name, ...options });

async function ffmpeg(...args: string[]) {
  await run(tools.ffmpeg, ["-nostdin", "-v", "error", "-y", ...args]);
}
const testPattern = (size = "160x120", seconds = 1) => ["-f", "lavfi", "-i", `testsrc=size=${size}:rate=25:duration=${seconds}`];
const tone = ["-f", "lavfi", "-i", "sine=frequency=440:duration=1"];

async function refusal(promise: Promise<unknown>): Promise<string> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return (error as AppError).code;
}

beforeAll(async () => {
  tools = await resolveVideoTools();
  dir = await mkdtemp(path.join(os.tmpdir(), "videos-test-"));
  const h264 = ["-c:v", "libx264", "-preset", "ultrafast", "-pix_fmt", "yuv420p"];
  await Promise.all([
    ffmpeg(
      ...testPattern(),
      ...tone,
      ...h264,
      "-c:a",
      "aac",
      "-movflags",
      "+faststart",
      "-metadata",
      "creation_time=2024-06-01T10:20:30Z",
      "-metadata",
      "location=+48.8577+002.2950/",
      clip("phone.mp4"),
    ),
    // An iPhone's kind of file: HEVC, and sound no browser plays in MP4 (PCM), in a MOV.
    ffmpeg(
      ...testPattern(),
      ...tone,
      "-c:v",
      "libx265",
      "-preset",
      "ultrafast",
      "-x265-params",
      "log-level=error",
      "-tag:v",
      "hvc1",
      "-c:a",
      "pcm_s16le",
      // As iPhones write it: the local time with its offset, in QuickTime's metadata keys.
      "-movflags",
      "use_metadata_tags",
      "-metadata",
      "com.apple.quicktime.creationdate=2024-06-01T12:20:30+0200",
      clip("iphone.mov"),
    ),
    ffmpeg(
      ...testPattern(),
      ...tone,
      "-c:v",
      "libvpx-vp9",
      "-deadline",
      "realtime",
      "-cpu-used",
      "8",
      "-pix_fmt",
      "yuv420p",
      "-c:a",
      "libopus",
      clip("clip.webm"),
    ),
    ffmpeg(...testPattern("9000x16", 1), "-frames:v", "1", ...h264, clip("wide.mp4")),
  ]);
  const phone = await readFile(clip("phone.mp4"));
  const webm = await readFile(clip("clip.webm"));
  const iphone = await readFile(clip("iphone.mov"));
  // Filmed upright: the same stream with a quarter turn in its display matrix.
  const rotated = ffmpeg("-i", clip("phone.mp4"), "-c", "copy", "-metadata:s:v:0", "rotate=90", clip("upright.mp4"));
  // The H.264 parameter sets overwritten: the header still reads, no frame decodes.
  const broken = Buffer.from(phone);
  const avcC = broken.indexOf("avcC") + 4;
  broken.fill(0xff, avcC + 9, avcC + 8 + broken.readUInt16BE(avcC + 6));
  // A WebM whose header claims a billion seconds (Duration, in milliseconds, as a double).
  const endless = Buffer.from(webm);
  endless.writeDoubleBE(1e12, endless.indexOf(Buffer.from([0x44, 0x89, 0x88])) + 3);
  await Promise.all([
    rotated,
    writeFile(clip("broken.mp4"), broken),
    writeFile(clip("endless.webm"), endless),
    // Cut off: with its index at the front (the frames it lists are missing), and at the end (no index at all).
    writeFile(clip("cut.mp4"), phone.subarray(0, Math.floor(phone.length * 0.6))),
    writeFile(clip("cut.mov"), iphone.subarray(0, Math.floor(iphone.length * 0.6))),
    writeFile(clip("empty.mp4"), ""),
    writeFile(clip("notes.mp4"), "Not a video, whatever the name says.\n"),
    copyFile(clip("clip.webm"), clip("webm-named.mp4")),
  ]);
}, 30_000);

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("inspecting a video", () => {
  it("reads a phone's MP4: container, codecs, duration, size and the capture date", async () => {
    const info = await inspect("phone.mp4");
    expect(info).toMatchObject({
      container: "mp4",
      contentType: "video/mp4",
      extension: "mp4",
      width: 160,
      height: 120,
      rotation: 0,
      video: { codec: "h264", pixelFormat: "yuv420p", frameRate: 25 },
      audio: { codec: "aac", channels: 1 },
      takenAt: "2024-06-01T10:20:30+00:00",
    });
    expect(info.durationSeconds).toBeCloseTo(1, 1);
    expect(webRenditionReasons(info)).toEqual([]);
  });

  it("turns the size of a video filmed upright", async () => {
    const info = await inspect("upright.mp4");
    expect(info).toMatchObject({ width: 120, height: 160 });
    expect([90, 270]).toContain(info.rotation);
  });

  it("takes HEVC in MOV and WebM, and says which need a web rendition and why", async () => {
    const [mov, webm] = await Promise.all([inspect("iphone.mov"), inspect("clip.webm")]);
    expect(mov).toMatchObject({
      container: "mov",
      contentType: "video/quicktime",
      video: { codec: "hevc" },
      audio: { codec: "pcm_s16le" },
      takenAt: "2024-06-01T12:20:30+02:00",
    });
    expect(webRenditionReasons(mov)).toEqual(["video_codec", "audio_codec"]);
    expect(webm).toMatchObject({
      container: "webm",
      contentType: "video/webm",
      video: { codec: "vp9" },
      audio: { codec: "opus" },
    });
    expect(webRenditionReasons(webm)).toEqual([]);
    expect(webRenditionReasons({ ...webm, width: 3840, height: 2160, bitRate: 45_000_000 })).toEqual(["size", "bit_rate"]);
  });

  it.each([
    ["empty.mp4", "video_empty"],
    ["notes.mp4", "unsupported_video_type"],
    ["webm-named.mp4", "video_extension_mismatch"],
    ["cut.mov", "corrupt_video"],
    ["cut.mp4", "corrupt_video"],
    ["broken.mp4", "undecodable_video"],
    ["endless.webm", "video_too_long"],
    ["wide.mp4", "video_dimensions_unsupported"],
  ])("refuses %s with %s", async (name, code) => {
    expect(await refusal(inspect(name))).toBe(code);
  });

  it("refuses a photo, a video named as a photo, and one over VIDEO_MAX_BYTES or VIDEO_MAX_SECONDS", async () => {
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: "#c0ffee" } })
      .jpeg()
      .toBuffer();
    await writeFile(clip("photo.mp4"), jpeg);
    expect(await refusal(inspect("photo.mp4"))).toBe("unsupported_video_type");
    expect(await refusal(inspect("phone.mp4", { name: "phone.jpg" }))).toBe("video_extension_mismatch");
    expect(await refusal(inspect("phone.mp4", { maxBytes: 1000 }))).toBe("video_too_large");
    expect(await refusal(inspect("phone.mp4", { maxSeconds: 0.5 }))).toBe("video_too_long");
  });
});

describe("a video's poster", () => {
  it("is the photo thumbnail set, upright, WebP without metadata, with a placeholder", async () => {
    // What inspecting it says (the test above): 160 × 120 turned upright, one second.
    const poster = await renderVideoPoster(
      clip("upright.mp4"),
      { container: "mp4", width: 120, height: 160, durationSeconds: 1 },
      tools,
    );
    expect(poster.placeholder).toMatch(/^[A-Za-z0-9+/]+=*$/);
    for (const rendition of [poster.thumbnail, poster.preview]) {
      const meta = await sharp(rendition.data).metadata();
      expect(meta).toMatchObject({ format: "webp", width: 120, height: 160 });
      expect(meta.exif).toBeUndefined();
      expect(meta.xmp).toBeUndefined();
    }
  });
});

describe("the web rendition", () => {
  it("is H.264/AAC in a fast-start MP4, upright, without the original's metadata, renamed into place whole", async () => {
    const info = await inspect("iphone.mov");
    const target = clip("iphone.web.mp4");
    const progress: number[] = [];
    await transcodeWebRendition(clip("iphone.mov"), info, target, tools, { onProgress: (fraction) => progress.push(fraction) });
    const web = await inspectVideo(target, tools, limits);
    expect(web).toMatchObject({ container: "mp4", width: 160, height: 120, video: { codec: "h264", pixelFormat: "yuv420p" } });
    expect(web.audio?.codec).toBe("aac");
    expect(webRenditionReasons(web)).toEqual([]);
    expect(progress.at(-1)).toBe(1);
    const bytes = await readFile(target);
    // Fast start: the index (moov) comes before the frames (mdat).
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
    const probe = await runTool(
      tools.ffprobe,
      ["-v", "error", "-show_entries", "format_tags:stream_tags", "-of", "json", target],
      { timeoutMs: 10_000 },
    );
    // Only its capture date, as the instant it was (ADR 0064): no place, no device.
    const tags = probe.stdout.toString();
    expect(tags).not.toMatch(/location|com\.apple/);
    expect(info.takenAt).not.toBeNull();
    expect(tags).toContain(`"creation_time": "${new Date(Date.parse(info.takenAt!)).toISOString().slice(0, 19)}`);
    expect((await readdir(dir)).filter((name) => name.includes(".rendition."))).toEqual([]);
  });

  it("of a video that plays as it is, is its streams copied without the original's metadata, still upright", async () => {
    const info = { container: "mp4", durationSeconds: 1, audio: { codec: "aac", channels: 1 } } as const;
    const target = clip("upright.web.mp4");
    expect(await remuxForWeb(clip("upright.mp4"), info, target, tools)).toEqual({ contentType: "video/mp4" });
    const probe = await runTool(
      tools.ffprobe,
      [
        "-v",
        "error",
        "-show_entries",
        "stream=codec_name:stream_side_data=rotation:format_tags:stream_tags",
        "-of",
        "json",
        target,
      ],
      { timeoutMs: 10_000 },
    );
    const found = probe.stdout.toString();
    expect(found).toMatch(/"rotation": -?90/);
    expect(found).toMatch(/"codec_name": "h264"/);
    expect(found).not.toMatch(/location|creation|2024-06-01/);
    const bytes = await readFile(target);
    expect(bytes.indexOf("moov")).toBeLessThan(bytes.indexOf("mdat"));
  });

  it("of a video that plays as it is, keeps its capture date as the instant it was filmed (ADR 0064)", async () => {
    const info = {
      container: "mp4",
      durationSeconds: 1,
      audio: { codec: "aac", channels: 1 },
      takenAt: "2024-06-01T12:20:30+02:00",
    } as const;
    const target = clip("dated.web.mp4");
    await remuxForWeb(clip("upright.mp4"), info, target, tools);
    const probe = await runTool(tools.ffprobe, ["-v", "error", "-show_entries", "format_tags", "-of", "json", target], {
      timeoutMs: 10_000,
    });
    expect(probe.stdout.toString()).toContain('"creation_time": "2024-06-01T10:20:30');
    expect(probe.stdout.toString()).not.toMatch(/location/);
  });

  it("stops ffmpeg when aborted and leaves no file behind", async () => {
    const info = { container: "mp4", width: 160, height: 120, durationSeconds: 1, audio: { codec: "aac", channels: 1 } } as const;
    const target = clip("aborted.web.mp4");
    const abort = new AbortController();
    const transcoding = transcodeWebRendition(clip("phone.mp4"), info, target, tools, { signal: abort.signal });
    abort.abort(new Error("the member deleted the video"));
    await expect(transcoding).rejects.toThrow("the member deleted the video");
    const left = await readdir(dir);
    expect(left).not.toContain("aborted.web.mp4");
    expect(left.filter((name) => name.includes(".rendition."))).toEqual([]);
  });

  it("kills a run that outlives its time as video_timeout", async () => {
    const started = Date.now();
    const code = await refusal(
      runTool(tools.ffmpeg, ["-nostdin", "-re", "-f", "lavfi", "-i", "testsrc", "-f", "null", "-"], { timeoutMs: 200 }),
    );
    expect(code).toBe("video_timeout");
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});
