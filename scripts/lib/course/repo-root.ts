import path from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root (the folder holding the top-level package.json). */
export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../..");
