// A deep copy that nobody can change: what a judge receives. structuredClone cuts every link to
// the live session; Object.freeze on every level makes an attempt to edit it throw (ES modules
// are strict mode), so a judge cannot "fix" the transcript it is judging.
export function frozenCopy<T>(value: T): T {
  return deepFreeze(structuredClone(value));
}

function deepFreeze<T>(value: T): T {
  if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
