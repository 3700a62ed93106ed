// Just enough of a TypeScript scanner to read a focused test file without running it: the
// top-level arguments of a call, and where a string literal ends.

/** The top-level arguments of the call whose "(" is at `open` in `source`, as source text. */
export function callArguments(source: string, open: number): string[] {
  const args: string[] = [];
  let depth = 0;
  let current = "";
  for (let i = open + 1; i < source.length; i += 1) {
    const char = source[i] ?? "";
    if (char === '"' || char === "'" || char === "`") {
      const end = closingQuote(source, i);
      current += source.slice(i, end + 1);
      i = end;
      continue;
    }
    if ("([{".includes(char)) depth += 1;
    if (")]}".includes(char)) {
      if (depth === 0) break;
      depth -= 1;
    }
    if (char === "," && depth === 0) {
      args.push(current);
      current = "";
    } else current += char;
  }
  if (current.trim() !== "") args.push(current);
  return args;
}

/** Where the string literal that starts at `start` ends (template literals' `${…}` may hold quotes). */
export function closingQuote(source: string, start: number): number {
  const quote = source[start];
  for (let i = start + 1; i < source.length; i += 1) {
    if (source[i] === "\\") i += 1;
    else if (quote === "`" && source.startsWith("${", i)) {
      let depth = 0;
      for (; i < source.length; i += 1) {
        if (source[i] === "{") depth += 1;
        if (source[i] === "}" && --depth === 0) break;
      }
    } else if (source[i] === quote) return i;
  }
  return source.length;
}

/** The 1-based line of `index` in `source`. */
export function lineOf(source: string, index: number): number {
  return source.slice(0, index).split("\n").length;
}

/** The value of a plain string literal (`"…"`, `'…'`, or a template without `${}`); undefined for anything else. */
export function literalValue(text: string): string | undefined {
  const trimmed = text.trim();
  const quote = trimmed[0];
  if (quote !== '"' && quote !== "'" && quote !== "`") return undefined;
  if (closingQuote(trimmed, 0) !== trimmed.length - 1) return undefined;
  if (quote === "`") {
    if (trimmed.includes("${")) return undefined;
    return trimmed.slice(1, -1).replace(/\\(.)/g, "$1");
  }
  try {
    return JSON.parse(quote === "'" ? `"${trimmed.slice(1, -1).replace(/\\'/g, "'").replace(/"/g, '\\"')}"` : trimmed);
  } catch {
    return undefined;
  }
}
