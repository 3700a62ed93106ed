// `npm run check`'s import-cycle step: no file of packages/ or scripts/ reaches itself through its
// relative imports. Each cycle is printed as the chain of files that closes it, and the exit is 1.
// The checkpoints' starter/ and before/ copies are left out: they are not modules where they lie
// (their imports are the target's), and --check holds them to the target files that are checked here.
import path from "node:path";
import { repoRoot } from "./lib/course/manifest.js";
import { importCycles } from "./lib/imports/import-cycles.js";
import { importGraph, sourceFiles } from "./lib/imports/import-graph.js";

const checkpoints = path.join(repoRoot, "packages/pi-course/checkpoints");
const copies = (dir: string) => path.dirname(dir) !== checkpoints && path.dirname(path.dirname(dir)) === checkpoints;
const files = ["packages", "scripts"].flatMap((dir) => sourceFiles(path.join(repoRoot, dir), copies));
const cycles = importCycles(importGraph(files));
const shown = (file: string) => path.relative(repoRoot, file).split(path.sep).join("/");
for (const cycle of cycles) console.error(`import cycle: ${cycle.map(shown).join(" → ")}`);
if (cycles.length > 0) {
  console.error(
    `${cycles.length} import cycle(s) among ${files.length} files: move what both files need into a file that imports neither.`,
  );
  process.exit(1);
}
console.log(`no import cycles among ${files.length} files of packages/ and scripts/`);
