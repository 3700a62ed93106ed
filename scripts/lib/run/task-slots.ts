// A fixed number of slots for long tasks (a practice tree's builds and focused runs): a task waits for a
// free slot, so starting twenty of them keeps only `slots` at work and the machine's load bounded.

/** Returns a runner that lets at most `slots` of the tasks given to it run at once, in the order given. */
export function taskSlots(slots: number): <T>(task: () => Promise<T>) => Promise<T> {
  let free = slots;
  const waiting: Array<() => void> = [];
  // A finished task hands its slot straight to the first waiting one, so no later caller can take it between.
  const release = () => {
    const next = waiting.shift();
    if (next) next();
    else free += 1;
  };
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (free > 0) free -= 1;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      release();
    }
  };
}
