// `node --import` for npm test and test:course: Node's test runner starts one process per test file
// with the runner's own flags, so `--import tsx` would load tsx into the runner and into every
// compiled `.js` test file's process, which need none of it (0.15–0.2 s of CPU each, measured: close
// to half of a small file's cost). Only a process whose script is TypeScript loads it.
if (process.argv[1]?.endsWith(".ts")) await import("tsx");
