// Deep copies of values that are already JSON: entries in a store and the messages on a path were
// checked by parseEntry at the door, so copying only JSON's shapes (objects, arrays, primitives) is
// enough, and several times faster than the general structuredClone, whose per-call cost dominates
// on a branch of tens of thousands of small entries.

/** A deep copy of `value`, which must hold only JSON shapes. */
export function copyJsonShapes<T>(value: T): T {
  return copyValue(value) as T;
}

function copyValue(value: unknown): unknown {
  if (typeof value !== "object" || value === null) return value;
  if (Array.isArray(value)) return value.map(copyValue);
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(value)) copy[key] = copyValue((value as Record<string, unknown>)[key]);
  return copy;
}
