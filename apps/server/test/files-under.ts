import fs from "node:fs/promises";
import path from "node:path";

/** Every file under `dir` (at any depth), sorted; none when it does not exist. */
export async function filesUnder(dir: string): Promise<string[]> {
  const found = await fs.readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  return found
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}
