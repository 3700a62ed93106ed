// A real headless Chromium for the run-view checks, the screenshots and the bench: the system's
// own browser (Debian's `chromium`, or Chrome/Chromium where macOS and Windows install them),
// driven by playwright-core, which downloads nothing. CHROMIUM_PATH names another binary.
import { existsSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { type Browser, chromium, type Page } from "playwright-core";

const CANDIDATES = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/snap/bin/chromium",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  path.win32.join(process.env.PROGRAMFILES ?? "C:\\Program Files", "Google", "Chrome", "Application", "chrome.exe"),
];

/** The Chromium binary to use, or undefined when none is installed. */
export function findChromium(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (env.CHROMIUM_PATH) return existsSync(env.CHROMIUM_PATH) ? env.CHROMIUM_PATH : undefined;
  return CANDIDATES.find((candidate) => existsSync(candidate));
}

/** The one line a run without Chromium prints instead of the browser checks. */
export const NO_CHROMIUM =
  "没有找到 Chromium：浏览器检查跳过（Debian/Ubuntu 上 apt-get install -y chromium，或用 CHROMIUM_PATH 指向它）";

export async function launchChromium(executablePath: string): Promise<Browser> {
  // As root (CI, containers) Chromium refuses to start without --no-sandbox.
  const rootless = typeof process.getuid === "function" && process.getuid() === 0;
  return chromium.launch({ executablePath, headless: true, args: rootless ? ["--no-sandbox"] : [] });
}

/** What a page did that a self-contained page must not: console errors, page errors, requests past its own file. */
export interface PageWatch {
  errors: string[];
  requests: string[];
}

/** Opens `file` in a new page and waits until its script has drawn everything. */
export async function openRunPage(browser: Browser, file: string): Promise<{ page: Page; watch: PageWatch }> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  const watch: PageWatch = { errors: [], requests: [] };
  const own = pathToFileURL(path.resolve(file)).href;
  page.on("console", (message) => {
    if (message.type() === "error") watch.errors.push(message.text());
  });
  page.on("pageerror", (error) => watch.errors.push(error.message));
  page.on("request", (request) => {
    if (request.url() !== own) watch.requests.push(request.url());
  });
  await page.goto(own);
  await page.waitForSelector("body[data-ready]");
  return { page, watch };
}
