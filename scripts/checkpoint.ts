// CLI: npm run checkpoint -w @pi/course -- [id] [--diff [parent] | --write parent|target <dir> | --diagnostic | --lab 7.N]
// (also `npm run checkpoint -- …` at the root). See `--help`.
import { checkpoint } from "./lib/cli/checkpoint-command.js";
import { runCli } from "./lib/usage-error.js";

await runCli(async () => {
  process.stdout.write(`${await checkpoint(process.argv.slice(2))}\n`);
});
