// Draws the installed app's icons from the favicon, once; the PNGs are committed beside it in
// apps/web/public. Run again (`node scripts/make-app-icons.mjs`) only when the favicon changes.
// sharp is the server's dependency: no icon generator is needed for four files.
import fs from "node:fs/promises";
import path from "node:path";
import sharp from "sharp";

const publicDir = path.resolve(import.meta.dirname, "../apps/web/public");
// The page's background token in light mode (apps/web/src/index.css: --background), as sRGB.
const background = "#fcf9f3";

const favicon = await fs.readFile(path.join(publicDir, "favicon.svg"));

/**
 * The favicon drawn at `size` on the background, taking `share` of the width: "any" icons keep a
 * small margin; a maskable icon keeps its drawing inside the central circle every mask leaves.
 */
async function icon(file, size, share) {
  const drawn = Math.round(size * share);
  const glyph = await sharp(favicon, { density: Math.ceil((72 * drawn) / 32) })
    .resize(drawn, drawn)
    .png()
    .toBuffer();
  await sharp({ create: { width: size, height: size, channels: 4, background } })
    .composite([{ input: glyph, gravity: "center" }])
    .png({ compressionLevel: 9 })
    .toFile(path.join(publicDir, file));
}

await icon("pwa-192x192.png", 192, 0.8);
await icon("pwa-512x512.png", 512, 0.8);
await icon("maskable-512x512.png", 512, 0.6);
await icon("apple-touch-icon-180x180.png", 180, 0.8);
