// The course manifest of this repository (packages/pi-course/checkpoints/manifest.json), read
// once through @pi/course-kit's one reader (schema, derived fields), and looked up by id.
import path from "node:path";
import { type Manifest, ManifestError, readManifest } from "../../../packages/pi-course-kit/src/index.js";
import { UsageError } from "../usage-error.js";
import { repoRoot } from "./repo-root.js";

export {
  type Checkpoint,
  type Diagnostic,
  focusedTestCount,
  type Lab,
  labError,
  type Manifest,
} from "../../../packages/pi-course-kit/src/index.js";
export { repoRoot } from "./repo-root.js";

export const manifestPath = path.join(repoRoot, "packages/pi-course/checkpoints/manifest.json");

let cached: Manifest | undefined;

/** The manifest; a manifest that fails its schema is a UsageError listing every problem, never a stack trace. */
export function loadManifest(): Manifest {
  if (cached === undefined) {
    try {
      cached = readManifest(manifestPath);
    } catch (error) {
      if (error instanceof ManifestError) throw new ManifestLookupError(error.message);
      throw error;
    }
  }
  return cached;
}

/** A checkpoint id is two digits, as in the chapter's `npm run checkpoint -w @pi/course -- 07`. */
const CHECKPOINT_ID = /^\d{2}$/;

/**
 * The checkpoint `id`, or a one-line error naming the fix: a malformed id (`7`, `007`, `../07`,
 * empty) or one the manifest does not list.
 */
export function findCheckpoint(id: string): Manifest["checkpoints"][number] {
  const known = loadManifest().checkpoints.map((checkpoint) => checkpoint.id);
  if (!CHECKPOINT_ID.test(id)) {
    throw new ManifestLookupError(
      `检查点编号 "${id}" 格式不对：请用两位数字，例如 ${known[0] ?? "07"}（可用：${known.join("、")}）。`,
    );
  }
  const checkpoint = loadManifest().checkpoints.find((candidate) => candidate.id === id);
  if (checkpoint === undefined) {
    throw new ManifestLookupError(`没有检查点 ${id}：可用的检查点是 ${known.join("、")}。`);
  }
  return checkpoint;
}

/** A checkpoint id or a manifest the machinery cannot use; its message is what a CLI prints. */
export class ManifestLookupError extends UsageError {
  override name = "ManifestLookupError";
}

/** Forgets the cached manifest (after `--new` rewrote it). */
export function reloadManifest(): Manifest {
  cached = undefined;
  return loadManifest();
}
