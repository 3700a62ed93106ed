// JSON text from inside the sandbox, parsed on the host. JSON.parse makes "__proto__" an own
// property (it never sets a prototype), but host code that later merges or assigns such an object
// could; so the key is dropped at the border, at any depth, before anything else sees it.

const POISONED_KEY = "__proto__";

export function parseSandboxJson(text: string): unknown {
  return JSON.parse(text, (key, value) => (key === POISONED_KEY ? undefined : value));
}
