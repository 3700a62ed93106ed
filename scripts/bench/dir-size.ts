// Bytes and files a directory holds by itself: links (the shared toolchain) are not followed or counted.
import fs from "node:fs/promises";
import path from "node:path";

export interface DirSize {
  bytes: number;
  files: number;
  /** Symbolic links and junctions met and not followed. */
  links: number;
}

export async function dirSize(dir: string): Promise<DirSize> {
  const total: DirSize = { bytes: 0, files: 0, links: 0 };
  for (const entry of await fs.readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isSymbolicLink()) total.links += 1;
    else if (entry.isDirectory()) {
      const inner = await dirSize(full);
      total.bytes += inner.bytes;
      total.files += inner.files;
      total.links += inner.links;
    } else if (entry.isFile()) {
      total.bytes += (await fs.lstat(full)).size;
      total.files += 1;
    }
  }
  return total;
}
