import { buffer } from "node:stream/consumers";
import yauzl from "yauzl";

/**
 * Every entry of a ZIP (a file's path or its bytes) by name, read by an independent reader
 * (yauzl) that checks each entry's size and CRC-32 as it goes.
 */
export async function zipEntries(zip: string | Buffer): Promise<Map<string, Buffer>> {
  const options = { lazyEntries: true, validateEntrySizes: true };
  const file = await new Promise<yauzl.ZipFile>((resolve, reject) => {
    const opened = (error: Error | null, result: yauzl.ZipFile) => (error ? reject(error) : resolve(result));
    if (typeof zip === "string") yauzl.open(zip, options, opened);
    else yauzl.fromBuffer(zip, options, opened);
  });
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    file.on("entry", (entry: yauzl.Entry) => {
      file.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        void buffer(stream).then((bytes) => {
          entries.set(entry.fileName, bytes);
          file.readEntry();
        }, reject);
      });
    });
    file.on("end", resolve);
    file.on("error", reject);
    file.readEntry();
  });
  return entries;
}
