// The run view's script, inlined into every page: it reads the embedded JSON and builds the tree,
// the transcript of the selected branch and the timeline with DOM calls only. Session text is
// untrusted, so it only ever becomes textContent, never markup. Plain ES2020, no build step.
// (No backticks or dollar-braces below: this is one template literal.)
export const pageScript = String.raw`
"use strict";
(function () {
  var data = JSON.parse(document.getElementById("run-data").textContent);
  var entries = data.entries;
  var byId = new Map();
  entries.forEach(function (entry) { byId.set(entry.id, entry); });

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }
  function oneLine(text, max) {
    var line = String(text).replace(/\s+/g, " ").trim();
    return line.length > max ? line.slice(0, max) + "…" : line;
  }
  function blocksText(content) {
    if (typeof content === "string") return content;
    return content.map(function (block) {
      if (block.type === "text") return block.text;
      if (block.type === "toolCall") return block.name + "(" + block.id + ")";
      return "[" + block.type + "]";
    }).join(" ");
  }

  // Labels: the newest label entry for a target wins; one without a label clears it.
  var labels = new Map();
  entries.forEach(function (entry) {
    if (entry.type !== "label") return;
    if (typeof entry.label === "string") labels.set(entry.targetId, entry.label);
    else labels.delete(entry.targetId);
  });

  function summary(entry) {
    // An entry Pi wrote and tiny-pi reads through a stand-in: named as Pi named it.
    if (typeof entry.piKind === "string") return entry.piKind + "  " + oneLine(entry.piWords, 44);
    switch (entry.type) {
      case "message": {
        var m = entry.message;
        if (m.role === "toolResult") return "toolResult " + m.toolCallId + (m.isError ? " ✗ " : " ") + oneLine(blocksText(m.content), 40);
        var tail = m.role === "assistant" && m.stopReason !== "stop" ? " [" + m.stopReason + "]" : "";
        return m.role + "  " + oneLine(blocksText(m.content), 44) + tail;
      }
      case "compaction": return "压缩  从 " + entry.firstKeptEntryId + " 起保留，之前 " + entry.tokensBefore + " tokens";
      case "label": return "标签  " + (entry.label === undefined ? "（清除）" : entry.label) + " → " + entry.targetId;
      case "session_info": return "名字  " + entry.name;
      case "model_change": return "模型  " + entry.provider + "/" + entry.modelId;
      case "thinking_level_change": return "思考级别  " + entry.thinkingLevel;
      default: return entry.type;
    }
  }

  // The tree: one row per entry, depth first; only a branch point indents (like tiny-pi tree).
  var children = new Map();
  entries.forEach(function (entry) {
    var parent = entry.parentId !== null && byId.has(entry.parentId) ? entry.parentId : null;
    if (!children.has(parent)) children.set(parent, []);
    children.get(parent).push(entry);
  });
  var leaves = entries.filter(function (entry) { return !children.has(entry.id); }).length;
  document.getElementById("entry-count").textContent = entries.length + " 个条目 · " + leaves + " 个分支";
  // The rows in depth-first order; only a branch point indents (like tiny-pi tree).
  var order = [];
  var stack = [];
  function push(parent, prefix) {
    var kids = children.get(parent) || [];
    var branching = kids.length > 1;
    for (var i = kids.length - 1; i >= 0; i -= 1) {
      var last = i === kids.length - 1;
      stack.push({
        entry: kids[i],
        prefix: branching ? prefix + (last ? "   " : "│  ") : prefix,
        connector: branching ? prefix + (last ? "└─ " : "├─ ") : prefix,
      });
    }
  }
  push(null, "");
  for (var item = stack.pop(); item !== undefined; item = stack.pop()) {
    order.push(item);
    push(item.entry.id, item.prefix);
  }

  // Rows are drawn a block at a time, when the block scrolls near the view: a 10,000-entry tree
  // costs a few blocks of elements, not 10,000 rows. Every row has the same height, so an empty
  // block already takes its final place.
  var ROWS_PER_BLOCK = 100;
  var ROW_HEIGHT = 19;
  var tree = document.getElementById("tree-rows");
  var rows = new Map();
  var blockOf = new Map();
  var blocks = [];
  var onPath = new Set();
  var selectedId = null;
  order.forEach(function (item, index) { blockOf.set(item.entry.id, Math.floor(index / ROWS_PER_BLOCK)); });
  function drawRow(item) {
    var entry = item.entry;
    // One text node per row; only a label or the leaf adds an element.
    var row = el("div", "row kind-" + entry.type, item.connector + entry.id + " " + summary(entry));
    row.dataset.entry = entry.id;
    row.tabIndex = 0;
    if (labels.has(entry.id)) row.appendChild(el("span", "tag", labels.get(entry.id)));
    if (entry.id === data.leafId) row.appendChild(el("span", "leaf", "  ← 叶"));
    if (onPath.has(entry.id)) row.classList.add("on-path");
    if (entry.id === selectedId) row.classList.add("selected");
    rows.set(entry.id, row);
    return row;
  }
  function fill(index) {
    var block = blocks[index];
    if (block.dataset.drawn) return;
    block.dataset.drawn = "true";
    var fragment = document.createDocumentFragment();
    order.slice(index * ROWS_PER_BLOCK, (index + 1) * ROWS_PER_BLOCK).forEach(function (item) { fragment.appendChild(drawRow(item)); });
    block.appendChild(fragment);
  }
  var observer = new IntersectionObserver(function (seen) {
    seen.forEach(function (each) { if (each.isIntersecting) fill(Number(each.target.dataset.block)); });
  }, { root: document.getElementById("tree"), rootMargin: "600px 0px" });
  for (var start = 0; start < order.length; start += ROWS_PER_BLOCK) {
    var block = el("div", "rows");
    block.dataset.block = String(blocks.length);
    block.style.height = Math.min(ROWS_PER_BLOCK, order.length - start) * ROW_HEIGHT + "px";
    blocks.push(block);
    tree.appendChild(block);
    observer.observe(block);
  }
  /** The row of id, drawn now if its block was not yet. */
  function rowOf(id) {
    if (!blockOf.has(id)) return undefined;
    fill(blockOf.get(id));
    return rows.get(id);
  }

  /** A long branch shows its newest entries first; a button brings the earlier ones in, a page at a time. */
  var TRANSCRIPT_PAGE = 200;

  function pathTo(id) {
    var path = [];
    var seen = new Set();
    for (var at = byId.get(id); at !== undefined && !seen.has(at.id); at = at.parentId === null ? undefined : byId.get(at.parentId)) {
      seen.add(at.id);
      path.push(at);
    }
    return path.reverse();
  }

  var transcript = document.getElementById("transcript-body");
  function select(id, reveal) {
    onPath.forEach(function (each) { var row = rows.get(each); if (row) row.classList.remove("on-path"); });
    if (selectedId !== null && rows.has(selectedId)) rows.get(selectedId).classList.remove("selected");
    var path = pathTo(id);
    onPath = new Set(path.map(function (entry) { return entry.id; }));
    selectedId = id;
    onPath.forEach(function (each) { var row = rows.get(each); if (row) row.classList.add("on-path"); });
    var chosen = rowOf(id);
    if (chosen) {
      chosen.classList.add("selected");
      if (reveal) chosen.scrollIntoView({ block: "nearest" });
    }
    document.getElementById("transcript-title").textContent = "分支 " + id + " 的 transcript（" + path.length + " 个条目）";
    renderTranscript(path, id, Math.max(0, path.length - TRANSCRIPT_PAGE));
  }

  function renderTranscript(path, selectedId, from) {
    var results = new Map();
    path.forEach(function (entry) {
      if (entry.type === "message" && entry.message.role === "toolResult") results.set(entry.message.toolCallId, entry);
    });
    // Entries before the newest compaction's first kept entry are replaced by its summary.
    var compacted = new Set();
    var compactionAt = -1;
    path.forEach(function (entry, index) { if (entry.type === "compaction") compactionAt = index; });
    if (compactionAt >= 0) {
      var kept = path[compactionAt].firstKeptEntryId;
      for (var i = 0; i < compactionAt && path[i].id !== kept; i += 1) compacted.add(path[i].id);
    }
    var paired = new Set();
    var body = document.createDocumentFragment();
    if (from > 0) {
      var more = el("button", "more", "显示更早的 " + Math.min(from, TRANSCRIPT_PAGE) + " 个条目（这条分支还有 " + from + " 个更早的条目）");
      more.addEventListener("click", function () { renderTranscript(path, selectedId, Math.max(0, from - TRANSCRIPT_PAGE)); });
      body.appendChild(more);
    }
    path.forEach(function (entry, index) {
      if (index < from) return;
      var card;
      if (entry.type === "message") {
        var m = entry.message;
        if (m.role === "toolResult" && paired.has(m.toolCallId)) return;
        card = el("div", "card " + m.role);
        card.appendChild(el("div", "who", entry.id + " · " + m.role + (m.role === "assistant" ? " · " + m.stopReason : "")));
        if (m.role === "toolResult") {
          card.appendChild(el("div", "result orphan", "没有对应调用的结果 " + m.toolCallId + "：" + blocksText(m.content)));
        } else if (typeof m.content === "string") {
          card.appendChild(el("div", "text", m.content));
        } else {
          m.content.forEach(function (block) {
            if (block.type === "toolCall") {
              var result = results.get(block.id);
              var pair = el("div", "pair" + (result ? "" : " unpaired"));
              pair.dataset.call = block.id;
              pair.appendChild(el("div", "call", "调用 " + block.name + "(" + block.id + ")\n" + JSON.stringify(block.arguments, null, 1)));
              if (result) {
                paired.add(block.id);
                pair.dataset.result = result.id;
                var r = result.message;
                pair.appendChild(el("div", "result" + (r.isError ? " error" : ""), "结果 " + r.toolCallId + (r.isError ? " ✗" : "") + "\n" + blocksText(r.content)));
              } else {
                pair.appendChild(el("div", "result missing", "没有配对的结果：这个调用在分支上没有闭合"));
              }
              card.appendChild(pair);
            } else if (block.type === "text") {
              card.appendChild(el("div", "text", block.text));
            }
          });
          if (m.errorMessage) card.appendChild(el("div", "missing", m.errorMessage));
        }
      } else if (entry.type === "compaction") {
        card = el("div", "card compaction");
        card.appendChild(el("div", "who", entry.id + " · 压缩：之前的对话换成摘要，从 " + entry.firstKeptEntryId + " 起保留（之前 " + entry.tokensBefore + " tokens）"));
        card.appendChild(el("div", "text", entry.summary));
      } else {
        card = el("div", "card");
        card.appendChild(el("div", "who", entry.id + " · " + summary(entry)));
      }
      card.dataset.entry = entry.id;
      if (compacted.has(entry.id)) card.classList.add("compacted");
      if (entry.id === selectedId) card.classList.add("selected");
      body.appendChild(card);
    });
    transcript.replaceChildren(body);
  }

  tree.addEventListener("click", function (event) {
    var row = event.target.closest(".row");
    if (row) select(row.dataset.entry);
  });
  tree.addEventListener("keydown", function (event) {
    var row = event.target.closest(".row");
    if (row && event.key === "Enter") select(row.dataset.entry);
  });

  // The timeline: each lane a track; the axis maps times to percents, with idle gaps (ms) collapsed.
  // A long branch draws its newest turns first; a button draws the whole timeline.
  var TIMELINE_TURNS = 50;
  var lanesBox = document.getElementById("lanes");
  var trackNote = document.getElementById("timeline-window");
  function drawTimeline(whole) {
    var source = data.timeline;
    var turns = source.spans.filter(function (span) { return span.lane === "loop"; });
    var cut = !whole && turns.length > TIMELINE_TURNS ? turns[turns.length - TIMELINE_TURNS].start : -Infinity;
    var timeline = {
      unit: source.unit,
      lanes: source.lanes,
      spans: source.spans.filter(function (span) { return span.end >= cut; }),
      marks: source.marks.filter(function (mark) { return mark.at >= cut; }),
    };
    lanesBox.replaceChildren();
    trackNote.replaceChildren();
    if (cut !== -Infinity) {
      var all = el("button", "more", "显示整个时间线（共 " + turns.length + " 轮，现在是最后 " + TIMELINE_TURNS + " 轮）");
      all.addEventListener("click", function () { drawTimeline(true); });
      trackNote.appendChild(all);
    }
    var GAP = 2000;
    var points = [];
    timeline.spans.forEach(function (span) { points.push(span.start, span.end); });
    timeline.marks.forEach(function (mark) { points.push(mark.at); });
    points.sort(function (a, b) { return a - b; });
    var unique = points.filter(function (p, i) { return i === 0 || p !== points[i - 1]; });
    var shown = [0];
    var gaps = [];
    for (var g = 1; g < unique.length; g += 1) {
      var step = unique[g] - unique[g - 1];
      if (timeline.unit === "ms" && step > GAP) { gaps.push(g); step = GAP / 4; }
      shown.push(shown[g - 1] + step);
    }
    var total = Math.max(shown[shown.length - 1] || 0, 1);
    function position(t) {
      var lo = 0, hi = unique.length - 1;
      while (lo < hi) { var mid = (lo + hi + 1) >> 1; if (unique[mid] <= t) lo = mid; else hi = mid - 1; }
      return (100 * (shown[lo] || 0)) / total;
    }
    function duration(span) {
      var length = span.end - span.start;
      return timeline.unit === "ms" ? length + " ms" : length + " 个事件";
    }
    var trackWidth = Math.max(window.innerWidth - 110, 200);
    var tracks = new Map();
    timeline.lanes.forEach(function (lane) {
      var row = el("div", "lane");
      row.dataset.lane = lane.id;
      row.appendChild(el("div", "lane-name", lane.label));
      var track = el("div", "track");
      row.appendChild(track);
      tracks.set(lane.id, { track: track, kind: lane.kind });
      lanesBox.appendChild(row);
    });
    timeline.spans.forEach(function (span) {
      var lane = tracks.get(span.lane);
      if (!lane) return;
      var left = position(span.start);
      var width = Math.max(position(span.end) - left, 0);
      // A label only where it can be read: narrow spans keep it in their tooltip.
      var node = el("div", "span " + lane.kind + (span.state === "ok" ? "" : " " + span.state), (width * trackWidth) / 100 > 24 ? span.label : undefined);
      node.style.left = left + "%";
      node.style.width = width + "%";
      node.title = span.label + (span.callId ? " " + span.callId : "") + " · " + duration(span) + (span.state === "open" ? " · 没有结果" : "");
      if (span.callId) node.dataset.call = span.callId;
      if (span.entryId) node.dataset.entry = span.entryId;
      lane.track.appendChild(node);
    });
    timeline.marks.forEach(function (mark) {
      var lane = tracks.get(mark.lane);
      if (!lane) return;
      var node = el("div", "mark " + mark.kind);
      node.style.left = position(mark.at) + "%";
      node.title = mark.label;
      node.appendChild(el("span", "", mark.label));
      lane.track.appendChild(node);
    });
    // Collapsed idle gaps: one dotted line across every lane.
    var overlay = el("div", "gaps");
    gaps.forEach(function (index) {
      var node = el("div", "gap");
      node.style.left = (100 * (shown[index - 1] + GAP / 8)) / total + "%";
      node.title = "空闲 " + Math.round((unique[index] - unique[index - 1]) / 1000) + " 秒（已压缩）";
      overlay.appendChild(node);
    });
    lanesBox.appendChild(overlay);
  }
  drawTimeline(false);
  lanesBox.addEventListener("click", function (event) {
    var span = event.target.closest(".span");
    if (span && span.dataset.entry && byId.has(span.dataset.entry)) select(span.dataset.entry, true);
  });

  var first = data.leafId !== null && byId.has(data.leafId) ? data.leafId : entries.length ? entries[entries.length - 1].id : null;
  if (first !== null) select(first, true);
  document.body.dataset.ready = "true";
})();
`;
