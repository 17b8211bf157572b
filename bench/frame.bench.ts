import { execFileSync } from "node:child_process";
import { chromium, type CDPSession, type Page } from "@playwright/test";
import sharp from "sharp";
import { HttpClient } from "./http";
import { machineLine, round, startServer, writeResults } from "./lib";

// Issue #36: a frame left running keeps its memory flat. The production server and web app on
// loopback; a member with 40 memories of one photo each (2000 × 1500 JPEGs); `/frame` in Debian's
// Chromium on a phone's CPU (slowed 4×), landscape, paired through its own screen and a member's
// approval, then left showing for BENCH_FRAME_MINUTES (60 by default; a slide every 10 s, as the
// product shows them). Every 30 s, after a garbage collection: the page's JavaScript heap, its DOM
// nodes, the object URLs still held, and the resident memory of all Chromium's processes.

const chromiumPath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const minutes = Number(process.env.BENCH_FRAME_MINUTES ?? 60);
const warmUpMs = Math.min(5 * 60_000, (minutes * 60_000) / 6);
const sampleEveryMs = 30_000;
const photos = 40;

interface Sample {
  atMs: number;
  heapMb: number;
  nodes: number;
  objectUrls: number;
  chromiumMb: number;
  slides: number;
}

/** Resident memory of every Chromium process of this run (the browser, its renderer, GPU and utility processes), in MB. */
function chromiumRssMb(browserPid: number): number {
  const tree = execFileSync("ps", ["-e", "-o", "pid=,ppid=,rss="], { encoding: "utf8" })
    .trim()
    .split("\n")
    .map((line) => line.trim().split(/\s+/).map(Number) as [number, number, number]);
  const ours = new Set([browserPid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of tree)
      if (ours.has(ppid) && !ours.has(pid)) {
        ours.add(pid);
        grew = true;
      }
  }
  return tree.filter(([pid]) => ours.has(pid)).reduce((sum, [, , rss]) => sum + rss, 0) / 1024;
}

async function sample(cdp: CDPSession, page: Page, browserPid: number, atMs: number): Promise<Sample> {
  await cdp.send("HeapProfiler.collectGarbage");
  const { metrics } = await cdp.send("Performance.getMetrics");
  const metric = (name: string) => metrics.find((entry) => entry.name === name)?.value ?? Number.NaN;
  const counts = await page.evaluate(() => {
    const seen = (window as unknown as { frameBench: { live: number; shown: Set<string> } }).frameBench;
    return { objectUrls: seen.live, slides: seen.shown.size };
  });
  return {
    atMs,
    heapMb: metric("JSHeapUsedSize") / 2 ** 20,
    nodes: metric("Nodes"),
    objectUrls: counts.objectUrls,
    slides: counts.slides,
    chromiumMb: chromiumRssMb(browserPid),
  };
}

const server = await startServer({ AUTH_AUTOCONFIRM: "true", AUTH_INVITE_ONLY: "false", AUTH_RATE_LIMITS: "false" });
const client = new HttpClient(server.url, 2);
// A switch of its own (Chromium ignores it) to find this browser's process among any others running.
const marker = `--frame-bench-run=${process.pid}`;
const browser = await chromium.launch({
  executablePath: chromiumPath,
  args: [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
    marker,
  ],
});
try {
  const email = "bench-frame@memory-box.test";
  const password = "correct horse battery";
  await client.json("POST", "/auth/v1/signup", {}, { email, password });
  const session = await client.json<{ access_token: string }>(
    "POST",
    "/auth/v1/token?grant_type=password",
    {},
    { email, password },
  );
  const headers = { authorization: `Bearer ${session.access_token}` };
  for (let n = 0; n < photos; n += 1) {
    const jpeg = await sharp({
      create: {
        width: 2000,
        height: 1500,
        channels: 3,
        background: { r: (n * 37) % 256, g: (n * 71) % 256, b: (n * 113) % 256 },
      },
    })
      .jpeg({ quality: 85 })
      .toBuffer();
    const boundary = "frame-bench";
    const body = Buffer.concat([
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="IMG_${n}.JPG"\r\nContent-Type: image/jpeg\r\n\r\n`,
      ),
      jpeg,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    const uploaded = await client.request(
      "POST",
      "/api/v1/photos",
      { ...headers, "content-type": `multipart/form-data; boundary=${boundary}`, "content-length": body.length },
      body,
    );
    if (uploaded.status !== 201) throw new Error(`upload: ${uploaded.status} ${uploaded.body.toString("utf8")}`);
    const { id } = JSON.parse(uploaded.body.toString("utf8")) as { id: string };
    await client.json("POST", "/api/v1/memories", headers, {
      title: `Frame memory ${n + 1}`,
      memory_date: `20${String(10 + (n % 15)).padStart(2, "0")}-06-1${n % 9}`,
      photo_ids: [id],
    });
  }

  // A tablet-sized landscape screen on a phone's CPU.
  const context = await browser.newContext({ viewport: { width: 1024, height: 640 } });
  // Counts the object URLs the page holds and the photos it showed, without changing what it does.
  await context.addInitScript(() => {
    const seen = { live: 0, shown: new Set<string>() };
    (window as unknown as { frameBench: typeof seen }).frameBench = seen;
    const create = URL.createObjectURL.bind(URL);
    const revoke = URL.revokeObjectURL.bind(URL);
    URL.createObjectURL = (object: Blob | MediaSource) => {
      seen.live += 1;
      return create(object);
    };
    URL.revokeObjectURL = (url: string) => {
      seen.live -= 1;
      revoke(url);
    };
    new MutationObserver(() => {
      for (const image of document.querySelectorAll("img[alt]")) seen.shown.add(image.getAttribute("alt") ?? "");
    }).observe(document, { subtree: true, childList: true, attributes: true, attributeFilter: ["src"] });
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Performance.enable");
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.goto(`${server.url}/frame`);
  const codeOnFrame = page.getByTestId("frame-user-code");
  await codeOnFrame.waitFor({ timeout: 60_000 });
  const code = (await codeOnFrame.textContent())!.trim();
  await client.json("POST", "/api/v1/frames", headers, {
    user_code: code,
    name: "Bench frame",
    selection: { kind: "everything" },
    display: { clock: true, night: null },
  });
  await codeOnFrame.waitFor({ state: "detached", timeout: 60_000 });

  const browserPid = Number(execFileSync("pgrep", ["-o", "-f", marker.slice(2)], { encoding: "utf8" }).trim());
  const samples: Sample[] = [];
  const started = performance.now();
  while (performance.now() - started < minutes * 60_000) {
    await new Promise((resolve) => setTimeout(resolve, sampleEveryMs));
    samples.push(await sample(cdp, page, browserPid, performance.now() - started));
    const last = samples.at(-1)!;
    console.log(
      `${round(last.atMs / 60_000, 1)} min: heap ${round(last.heapMb, 1)} MB, ${last.nodes} nodes, ${last.objectUrls} object URLs, Chromium ${round(last.chromiumMb)} MB, ${last.slides} photos shown`,
    );
  }

  const afterWarmUp = samples.find((entry) => entry.atMs >= warmUpMs) ?? samples[0]!;
  const end = samples.at(-1)!;
  const change = (from: number, to: number) => `${to >= from ? "+" : ""}${round((100 * (to - from)) / from, 1)} %`;
  const within = (from: number, to: number, percent: number) => (100 * (to - from)) / from <= percent;
  const verdict = (pass: boolean) => (pass ? "pass" : "FAIL");
  writeResults(
    "A frame left running (issue #36)",
    [
      machineLine(),
      `The production build on loopback; \`/frame\` in Debian's Chromium (headless, 1024 × 640, CPU slowed 4× as the phone profile), paired through its screen and a member's approval, showing ${photos} memories of one 2000 × 1500 photo each (a slide every 10 s, so every photo came round ${round((minutes * 6) / photos, 1)} times) for ${minutes} minutes. Each sample after a garbage collection; warm-up: the first ${round(warmUpMs / 60_000, 1)} minutes.`,
      "",
      "| Measure | After warm-up | At the end | Change | Target | |",
      "|---|---|---|---|---|---|",
      `| JavaScript heap | ${round(afterWarmUp.heapMb, 1)} MB | ${round(end.heapMb, 1)} MB | ${change(afterWarmUp.heapMb, end.heapMb)} | flat (within 10 %) | ${verdict(within(afterWarmUp.heapMb, end.heapMb, 10))} |`,
      `| DOM nodes | ${afterWarmUp.nodes} | ${end.nodes} | ${change(afterWarmUp.nodes, end.nodes)} | flat (within 10 %) | ${verdict(within(afterWarmUp.nodes, end.nodes, 10))} |`,
      `| Object URLs held | ${afterWarmUp.objectUrls} | ${end.objectUrls} | — | no growth | ${verdict(end.objectUrls <= Math.max(afterWarmUp.objectUrls, 4))} |`,
      `| Chromium's resident memory (all its processes) | ${round(afterWarmUp.chromiumMb)} MB | ${round(end.chromiumMb)} MB | ${change(afterWarmUp.chromiumMb, end.chromiumMb)} | flat (within 10 %) | ${verdict(within(afterWarmUp.chromiumMb, end.chromiumMb, 10))} |`,
      "",
      `Photos shown: ${end.slides} of ${photos}. JavaScript heap every ${sampleEveryMs / 1000} s (MB): ${samples.map((entry) => round(entry.heapMb, 1)).join(", ")}.`,
      `Chromium's resident memory every ${sampleEveryMs / 1000} s (MB): ${samples.map((entry) => round(entry.chromiumMb, 0)).join(", ")}.`,
    ].join("\n"),
  );
} finally {
  await browser.close();
  client.close();
  await server.stop();
}
