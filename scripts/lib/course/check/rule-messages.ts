// Every comparing assertion of a focused test carries its own message, the chapter rule it
// checks: verify shows that message as the first failure, instead of Node's generic
// "Expected values to be strictly equal:".
import { callArguments, lineOf } from "./source-scan.js";

/** Assertions whose failure text is generic without a message, and how many arguments a message makes. */
const WITH_MESSAGE: Record<string, number> = {
  ok: 2,
  equal: 3,
  notEqual: 3,
  deepEqual: 3,
  notDeepEqual: 3,
  strictEqual: 3,
  deepStrictEqual: 3,
  match: 3,
  doesNotMatch: 3,
};

/** `file:line assert.x(…)` for each assertion in `source` that has no message of its own. */
export function unnamedAssertions(file: string, source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/\bassert\.(\w+)\(/g)) {
    const needed = WITH_MESSAGE[match[1] ?? ""];
    if (needed === undefined) continue;
    const open = (match.index ?? 0) + match[0].length - 1;
    if (callArguments(source, open).length >= needed) continue;
    found.push(`${file}:${lineOf(source, match.index ?? 0)} assert.${match[1]}(…)`);
  }
  return found;
}
