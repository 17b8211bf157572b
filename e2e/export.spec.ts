import fs from "node:fs/promises";
import yauzl from "yauzl";
import { expect, test } from "./fixtures";
import { memberApi, signIn, solidPng } from "./support";

/** The entries of a downloaded ZIP by name, with their text (photos as byte counts). */
async function entriesOf(file: string): Promise<Map<string, Buffer>> {
  const zip = await new Promise<yauzl.ZipFile>((resolve, reject) =>
    yauzl.open(file, { lazyEntries: true }, (error, opened) => (error ? reject(error) : resolve(opened))),
  );
  const entries = new Map<string, Buffer>();
  await new Promise<void>((resolve, reject) => {
    zip.on("entry", (entry: yauzl.Entry) =>
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          entries.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      }),
    );
    zip.on("end", resolve);
    zip.on("error", reject);
    zip.readEntry();
  });
  return entries;
}

test("'Download everything' in Settings downloads every memory with its photo's original and pages to browse", async ({
  page,
}) => {
  test.setTimeout(90_000);
  await signIn(page, "export");
  const api = await memberApi(page, page.request);
  const image = await solidPng(64, 48, [200, 80, 40]);
  const photo = await api.uploadPhoto(image);
  const title = `Harbour walk ${Date.now().toString(36)}`;
  const memory = await api.createMemory({ title, tags: ["Sea"], photo_ids: [photo.id] });

  await page.getByRole("link", { name: "Settings" }).click();
  await expect(page.getByRole("heading", { name: "Your data" })).toBeVisible();
  // Settings is checked with axe by the screens journey (an owner's) and the account journey (a member's).
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Download everything" }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toMatch(/^memory-box-\d{4}-\d{2}-\d{2}\.zip$/);
  const file = test.info().outputPath("archive.zip");
  await download.saveAs(file);
  expect((await fs.stat(file)).size).toBeGreaterThan(image.length);

  const entries = await entriesOf(file);
  const manifest = JSON.parse(entries.get("memory-box.json")!.toString()) as {
    memories: { id: string; title: string; tags: string[]; photos: { id: string; file: string }[] }[];
  };
  const exported = manifest.memories.find((candidate) => candidate.id === memory.id)!;
  expect(exported).toMatchObject({ title, tags: ["Sea"] });
  expect(entries.get(exported.photos[0]!.file)?.equals(image)).toBe(true);
  expect(entries.get("index.html")!.toString()).toContain(title);
  expect(entries.has(`memories/${memory.id}.html`)).toBe(true);
});
