// `npm run screenshots`: the README's pictures of the run page, made from the demo's concurrent and
// agent scenarios in headless Chromium (the system's, through playwright-core), into docs/images/.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { findChromium, launchChromium, NO_CHROMIUM, openRunPage } from "./lib/browser/chromium.js";
import { repoRoot } from "./lib/course/manifest.js";
import { demoPage } from "./lib/demo/demo-html.js";
import type { ScenarioName } from "./lib/demo/demo-run.js";
import { runScenario } from "./lib/demo/demo-scenarios.js";
import { withTempDir } from "./lib/trees/temp-dir.js";
import { runCli, UsageError } from "./lib/usage-error.js";

const SHOTS: ScenarioName[] = ["concurrent", "agent"];

async function main(): Promise<void> {
  const executable = findChromium();
  if (executable === undefined) throw new UsageError(NO_CHROMIUM.replace("浏览器检查跳过", "无法截图"));
  const browser = await launchChromium(executable);
  try {
    await withTempDir("run-view-shots-", async (dir) => {
      for (const name of SHOTS) {
        const page = path.join(dir, `${name}.html`);
        writeFileSync(page, demoPage(await runScenario(name)));
        const { page: opened } = await openRunPage(browser, page);
        const out = path.join(repoRoot, "docs", "images", `run-view-${name}.png`);
        await opened.screenshot({ path: out, fullPage: true });
        await opened.close();
        process.stdout.write(`已写入 ${path.relative(repoRoot, out)}\n`);
      }
    });
  } finally {
    await browser.close();
  }
}

await runCli(main);
