import { createRequire } from "node:module";
import { Worker } from "node:worker_threads";

export type HeicDecoded = { width: number; height: number; rgba: Buffer };

/** What the worker answers: the pixels, a header over the limit (not decoded), or no image. */
type WorkerAnswer =
  { width: number; height: number; rgba: Uint8Array } | { refused: { width: number; height: number } } | { failed: string };

// Runs in the worker. The first image is the one heic-decode's own default would decode; its size
// is checked before a single pixel is allocated.
const workerSource = `
const { parentPort, workerData } = require("node:worker_threads");
const decodeHeic = require(workerData.decoder);
(async () => {
  let images;
  try {
    images = await decodeHeic.all({ buffer: new Uint8Array(workerData.input) });
    const first = images[0];
    if (first === undefined) return parentPort.postMessage({ failed: "no image in the file" });
    if (first.width * first.height > workerData.maxPixels) return parentPort.postMessage({ refused: { width: first.width, height: first.height } });
    const { width, height, data } = await first.decode();
    const rgba = new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
    parentPort.postMessage({ width, height, rgba }, [rgba.buffer]);
  } catch (error) {
    parentPort.postMessage({ failed: String(error && error.message || error) });
  } finally {
    if (images) images.dispose();
  }
})();
`;

/** Where heic-decode is installed, for the worker's `require` (an eval'd worker has no module path of its own). */
let decoder: string | undefined;

/**
 * Decodes a HEIC photo to RGBA in a worker thread of its own. heic-decode (libheif + libde265 in
 * WebAssembly) takes about a second for 12 megapixels; on the event loop that second would stall
 * every other request. A thread per photo also gives the WebAssembly memory back when it ends
 * (a module's memory only ever grows), and a decoder that crashes takes only its thread down.
 *
 * Resolves with the pixels, or with `refused` (the header's size, above `maxPixels`: nothing was
 * decoded); rejects when the file holds no decodable image.
 */
export function decodeHeicInWorker(
  input: Buffer,
  maxPixels: number,
): Promise<HeicDecoded | { refused: { width: number; height: number } }> {
  decoder ??= createRequire(import.meta.url).resolve("heic-decode");
  // A copy the worker owns: the caller's buffer may be a slice of a pooled allocation.
  const owned = new Uint8Array(input).buffer;
  const worker = new Worker(workerSource, {
    eval: true,
    workerData: { decoder, input: owned, maxPixels },
    transferList: [owned],
  });
  return new Promise<HeicDecoded | { refused: { width: number; height: number } }>((resolve, reject) => {
    worker.once("message", (answer: WorkerAnswer) => {
      if ("failed" in answer) reject(new Error(`HEIC decoding failed: ${answer.failed}`));
      else if ("refused" in answer) resolve(answer);
      else
        resolve({
          width: answer.width,
          height: answer.height,
          rgba: Buffer.from(answer.rgba.buffer, answer.rgba.byteOffset, answer.rgba.byteLength),
        });
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`the HEIC decoder stopped with code ${code}`)));
  }).finally(() => void worker.terminate());
}
