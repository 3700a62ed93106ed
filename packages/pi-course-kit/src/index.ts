export { focusedFiles } from "./focused-files.js";
export {
  type Checkpoint,
  type CheckpointEntry,
  type Diagnostic,
  derive,
  focusedRunOf,
  focusedTestCount,
  type Lab,
  labError,
  type Manifest,
  ManifestError,
  readManifest,
} from "./manifest.js";
export { makeRunTemp, type RunTemp } from "./run-temp.js";
export { staleSource } from "./stale-build.js";
export { type FocusedFailure, type FocusedResult, type FocusedTest, parseTap } from "./tap-report.js";
