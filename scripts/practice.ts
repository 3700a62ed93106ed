// CLI: npm run practice -w @pi/course -- <id> [dir] (also `npm run practice -- …` at the root). See `--help`.
import { practice, practiceHelp } from "./lib/cli/practice-command.js";
import { runCli } from "./lib/usage-error.js";

await runCli(async () => {
  const outcome = await practice(process.argv.slice(2));
  process.stdout.write(`${outcome === "help" ? practiceHelp : outcome.message}\n`);
});
