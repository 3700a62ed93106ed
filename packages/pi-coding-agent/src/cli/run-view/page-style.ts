// The run view's stylesheet, inlined into every page.
export const pageStyle = `
:root { color-scheme: light; --line: #d0d7de; --muted: #57606a; --red: #cf222e; --green: #1a7f37; --blue: #0969da; --amber: #9a6700; }
* { box-sizing: border-box; }
body { margin: 0; font: 14px/1.45 system-ui, -apple-system, "Segoe UI", "Noto Sans CJK SC", sans-serif; color: #1f2328; background: #fff; }
header { padding: 12px 16px; border-bottom: 1px solid var(--line); }
header h1 { font-size: 18px; margin: 0 0 4px; }
header p { margin: 0; color: var(--muted); }
main { display: grid; grid-template-columns: minmax(280px, 36%) 1fr; min-height: 0; }
section { padding: 10px 16px; min-width: 0; }
h2 { font-size: 14px; margin: 4px 0 8px; color: var(--muted); font-weight: 600; }
#tree { border-right: 1px solid var(--line); max-height: 70vh; overflow: auto; }
.rows { contain: strict; }
.more { margin: 0 0 8px; font: inherit; cursor: pointer; }
.row { height: 19px; overflow: hidden; font: 12px/19px ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; white-space: pre; cursor: pointer; padding: 0 4px; border-radius: 4px; }
.row:hover { background: #f6f8fa; }
.row.on-path { background: #ddf4ff; }
.row.selected { background: #b6e3ff; }
.row.kind-compaction { color: var(--amber); font-weight: 600; }
.row .tag { background: #fff8c5; border: 1px solid #d4a72c; border-radius: 8px; padding: 0 5px; margin-left: 6px; }
.row .leaf { color: var(--green); font-weight: 600; }
#transcript { max-height: 70vh; overflow: auto; }
.card { border: 1px solid var(--line); border-radius: 6px; padding: 6px 10px; margin: 0 0 8px; }
.card .who { font-size: 12px; color: var(--muted); }
.card.user { border-left: 4px solid var(--blue); }
.card.assistant { border-left: 4px solid #8250df; }
.card.compaction { border-left: 4px solid var(--amber); background: #fff8c5; }
.card.compacted { opacity: .5; }
.card.selected { outline: 2px solid var(--blue); }
.text { white-space: pre-wrap; word-break: break-word; }
.pair { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; margin-top: 6px; }
.call, .result { border: 1px solid var(--line); border-radius: 4px; padding: 4px 6px; font: 12px/1.5 ui-monospace, Menlo, Consolas, monospace; white-space: pre-wrap; word-break: break-word; }
.result.error { border-color: var(--red); color: var(--red); }
.pair.unpaired .call, .result.orphan { border: 2px solid var(--red); background: #ffebe9; }
.missing { color: var(--red); font-weight: 600; }
#timeline { border-top: 1px solid var(--line); padding-bottom: 24px; }
.lanes { position: relative; }
.lane { display: grid; grid-template-columns: 72px 1fr; align-items: center; height: 30px; border-bottom: 1px dashed #eaeef2; }
.lane-name { font-size: 12px; color: var(--muted); }
.track { position: relative; height: 100%; contain: strict; }
.span { position: absolute; top: 5px; height: 20px; min-width: 3px; border-radius: 3px; font-size: 11px; line-height: 20px; padding: 0 3px; overflow: hidden; white-space: nowrap; color: #fff; cursor: pointer; }
.span.model { background: #8250df; }
.span.loop { background: #57606a; }
.span.tool { background: var(--green); }
.span.error, .span.open { background: var(--red); }
.span.skipped { background: #bf8700; }
.mark { position: absolute; top: 0; bottom: 0; width: 2px; background: var(--blue); }
.mark span { position: absolute; top: -2px; left: 3px; font-size: 10px; color: var(--blue); white-space: nowrap; background: rgba(255,255,255,.8); }
.mark.steer, .mark.followUp { background: #bc4c00; }
.mark.steer span, .mark.followUp span { color: #bc4c00; }
.mark.compaction { background: var(--amber); }
.mark.compaction span { color: var(--amber); }
.gaps { position: absolute; top: 0; bottom: 0; left: 72px; right: 0; pointer-events: none; }
.gap { position: absolute; top: 0; bottom: 0; border-left: 2px dotted #afb8c1; }
.note { font-size: 12px; color: var(--muted); margin-top: 6px; }
`;
