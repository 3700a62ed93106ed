// A data line that parses as JSON is held to the shape ChunkMapper reads, so that a server sending
// an array, `choices: null` or a null tool-call fragment ends the turn with one line naming what
// arrived, not "no finish_reason" or a TypeError from inside the mapper. Null where servers
// commonly send it (a null delta, null tool_calls or content) stays accepted.

const SHOWN = 80;

function shown(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > SHOWN ? `${text.slice(0, SHOWN)}…` : text;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** What is wrong with a parsed data line as a chat chunk, or undefined when ChunkMapper can read it. */
export function chunkProblem(chunk: unknown): string | undefined {
  if (!isObject(chunk)) return `a data line holds ${shown(chunk)}, not a chunk object`;
  const { choices } = chunk;
  if (choices === undefined) return undefined;
  if (!Array.isArray(choices)) return `a chunk's choices is ${shown(choices)}, not a list`;
  for (const [index, choice] of choices.entries()) {
    const at = `choices[${index}]`;
    if (!isObject(choice)) return `a chunk's ${at} is ${shown(choice)}, not an object`;
    const { delta } = choice;
    if (delta === undefined || delta === null) continue;
    if (!isObject(delta)) return `a chunk's ${at}.delta is ${shown(delta)}, not an object`;
    const fragments = delta.tool_calls;
    if (fragments === undefined || fragments === null) continue;
    if (!Array.isArray(fragments)) return `a chunk's ${at}.delta.tool_calls is ${shown(fragments)}, not a list`;
    const bad = fragments.findIndex((fragment) => !isObject(fragment));
    if (bad !== -1) return `a chunk's ${at}.delta.tool_calls[${bad}] is ${shown(fragments[bad])}, not an object`;
  }
  return undefined;
}
