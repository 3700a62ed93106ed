// The names of a focused test file's top-level tests, read from its source: a lab's pattern must
// select exactly its `expected` count of them, the way `node --test --test-name-pattern` will.
import { callArguments, lineOf, literalValue } from "./source-scan.js";

export interface TestTitles {
  titles: string[];
  /** `line N` of each `test(` whose name is not a plain string literal. */
  unreadable: number[];
}

export function testTitles(source: string): TestTitles {
  const titles: string[] = [];
  const unreadable: number[] = [];
  for (const match of source.matchAll(/^test\(/gm)) {
    const open = (match.index ?? 0) + match[0].length - 1;
    const [first = ""] = callArguments(source, open);
    const title = literalValue(first);
    if (title === undefined) unreadable.push(lineOf(source, match.index ?? 0));
    else titles.push(title);
  }
  return { titles, unreadable };
}

/** Node's --test-name-pattern reads the pattern as a regular expression; an invalid one selects nothing here. */
export function selects(pattern: string, title: string): boolean {
  try {
    return new RegExp(pattern).test(title);
  } catch {
    return false;
  }
}
