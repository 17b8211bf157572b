// Video preparation benchmark: the poster of a 30 s 1080p H.264 clip (inspection, then the poster
// and its placeholder), and the web rendition of a 30 s 1080p HEVC clip against its duration and
// against ffmpeg alone with the same arguments, at normal priority. Both clips are made first by
// the same ffmpeg (test pattern and a tone); their making is not measured.
//
//   BENCH_VIDEO_RUNS   runs of each, median taken (default 3)
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import {
  inspectVideo,
  renderVideoPoster,
  resolveVideoTools,
  transcodeWebRendition,
  webRenditionArgs,
} from "../apps/server/src/modules/videos";
import { machineLine, round, RunConditions, watchCommand, writeResults } from "./lib";

const runs = Math.max(1, Number(process.env.BENCH_VIDEO_RUNS ?? 3));
const run = promisify(execFile);
const seconds = 30;
const limits = { maxBytes: 2 * 1024 ** 3, maxSeconds: 600 };

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function timed(work: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await work();
  return (performance.now() - started) / 1000;
}

const tools = await resolveVideoTools();
const dir = await mkdtemp(path.join(os.tmpdir(), "videos-bench-"));
const conditions = new RunConditions("sharp");
// FFmpeg's processes, counted apart from "rest" (the ones shorter than a sample may be missed).
const engine = [watchCommand("ffmpeg", "ffmpeg"), watchCommand("ffprobe", "ffprobe")];
try {
  const source = ["-f", "lavfi", "-i", `testsrc=size=1920x1080:rate=30:duration=${seconds}`];
  const tone = ["-f", "lavfi", "-i", `sine=frequency=440:duration=${seconds}`];
  const h264 = path.join(dir, "clip-h264.mp4");
  const hevc = path.join(dir, "clip-hevc.mov");
  console.log("making the clips…");
  await run(tools.ffmpeg, [
    "-nostdin",
    "-v",
    "error",
    "-y",
    ...source,
    ...tone,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    h264,
  ]);
  await run(tools.ffmpeg, [
    "-nostdin",
    "-v",
    "error",
    "-y",
    ...source,
    ...tone,
    "-c:v",
    "libx265",
    "-preset",
    "ultrafast",
    "-x265-params",
    "log-level=error",
    "-tag:v",
    "hvc1",
    "-pix_fmt",
    "yuv420p",
    "-c:a",
    "aac",
    hevc,
  ]);

  const inspections: number[] = [];
  const posters: number[] = [];
  await conditions.measure("poster (inspection + poster), 30 s 1080p H.264", engine, async () => {
    for (let i = 0; i < runs; i += 1) {
      let info: Awaited<ReturnType<typeof inspectVideo>> | undefined;
      inspections.push(await timed(async () => (info = await inspectVideo(h264, tools, { ...limits, name: "clip.mp4" }))));
      posters.push(await timed(() => renderVideoPoster(h264, info!, tools)));
    }
  });

  const hevcInfo = await inspectVideo(hevc, tools, { ...limits, name: "clip.mov" });
  const renditions: number[] = [];
  const alone: number[] = [];
  await conditions.measure("web rendition, 30 s 1080p HEVC", engine, async () => {
    for (let i = 0; i < runs; i += 1) {
      renditions.push(await timed(() => transcodeWebRendition(hevc, hevcInfo, path.join(dir, "web.mp4"), tools)));
    }
  });
  await conditions.measure("ffmpeg alone, same arguments", engine, async () => {
    for (let i = 0; i < runs; i += 1) {
      alone.push(await timed(() => run(tools.ffmpeg, webRenditionArgs(hevc, hevcInfo, path.join(dir, `alone-${i}.mp4`)))));
    }
  });

  const poster = median(inspections) + median(posters);
  const rendition = median(renditions);
  const markdown = [
    `${machineLine()} Median of ${runs} runs.`,
    "",
    "| What | Seconds | Target |",
    "|---|---|---|",
    `| Inspection of a 30 s 1080p H.264 clip (probe, first frame, last second) | ${round(median(inspections))} | |`,
    `| Its poster (frame at 1 s, WebP 1600/400, ThumbHash) | ${round(median(posters))} | |`,
    `| Poster ready after the upload (both) | ${round(poster)} | ≤ 3 |`,
    `| Web rendition of a 30 s 1080p HEVC clip (nice 10) | ${round(rendition)} (${round(rendition / seconds)} × its duration) | ≤ 1 × |`,
    `| ffmpeg alone, same arguments, normal priority | ${round(median(alone))} (rendition ${round(rendition / median(alone))} × it) | ≤ 1.1 × |`,
    "",
    conditions.markdown(),
  ].join("\n");
  console.log(markdown);
  writeResults("Videos", markdown);
} finally {
  await rm(dir, { recursive: true, force: true });
}
