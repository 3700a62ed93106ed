// One self-contained HTML page for a RunView: inline style and script, the view embedded as JSON.
// The page loads nothing: its Content-Security-Policy allows no request at all, only the inline
// style and script. The JSON sits in a <script type="application/json">; every `<` in it is written
// as \u003c, so no text from a session can close that element or open another one.
import { pageScript } from "./page-script.js";
import { pageStyle } from "./page-style.js";
import type { RunView } from "./run-view.js";

const POLICY = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:";

/** `value` as JSON that is safe inside a <script> element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, "\\u003c")
    .replace(/\u2028/g, "\\u2028")
    .replace(/\u2029/g, "\\u2029");
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export function renderRunPage(view: RunView): string {
  return `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${POLICY}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(view.title)}</title>
<style>${pageStyle}</style>
</head>
<body>
<header><h1>${escapeHtml(view.title)}</h1><p>${escapeHtml(view.subtitle)}</p></header>
<main>
<section id="tree"><h2>会话树 · <span id="entry-count"></span></h2><div id="tree-rows"></div></section>
<section id="transcript"><h2 id="transcript-title">transcript</h2><div id="transcript-body"></div></section>
</main>
<section id="timeline"><h2>时间线（当前分支）：模型流、loop、每个同时运行的工具调用一条泳道</h2><div id="timeline-window"></div><div id="lanes" class="lanes"></div><p class="note">${escapeHtml(view.timeline.note)}</p></section>
<script type="application/json" id="run-data">${scriptJson(view)}</script>
<script>${pageScript}</script>
</body>
</html>
`;
}
