// Lab 12.1 · 根与优先级: which resource wins when two share a kind and a name.
import type { Catalogue, Diagnostic, Resource, Shadowing } from "./types.js";

/**
 * `found` is in root order (lowest precedence first). Context files all apply, in that order.
 * For skills, templates and extensions a later root wins for the same (kind, name); each loser
 * is recorded with its winner. Winners are listed by (kind, name), whatever order they came in.
 */
export function buildCatalogue(found: readonly Resource[], diagnostics: readonly Diagnostic[] = []): Catalogue {
  const contextFiles = found.filter((resource) => resource.kind === "context");
  const winners = new Map<string, Resource>();
  const shadowed: Shadowing[] = [];
  for (const resource of found) {
    if (resource.kind === "context") continue;
    const key = `${resource.kind}\u0000${resource.name}`;
    const earlier = winners.get(key);
    if (earlier !== undefined) shadowed.push({ winner: resource, shadowed: earlier });
    winners.set(key, resource);
  }
  // A shadowed resource may itself have shadowed an older one: name the final winner.
  for (const entry of shadowed)
    entry.winner = winners.get(`${entry.winner.kind}\u0000${entry.winner.name}`) ?? entry.winner;
  const resources = [...winners.values()].sort((a, b) => compare(a.kind, b.kind) || compare(a.name, b.name));
  return { resources, contextFiles, shadowed, diagnostics: [...diagnostics] };
}

/** Code-unit order: the same on every machine and locale. */
function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
