// Given (not a lab): the loop runs a tool batch concurrently, so two writes or edits of one file
// could read the same original and the second would silently undo the first. Mutations of one
// real path therefore run one after another, in the order they were asked for.

const tails = new Map<string, Promise<void>>();

/** Runs `mutate` once every earlier mutation of `realPath` has settled. */
export async function withFileMutationQueue<T>(realPath: string, mutate: () => Promise<T>): Promise<T> {
  const previous = tails.get(realPath) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => done);
  tails.set(realPath, tail);
  try {
    await previous;
    return await mutate();
  } finally {
    release();
    if (tails.get(realPath) === tail) tails.delete(realPath);
  }
}
