// Given (not a lab): the loop runs a tool batch concurrently, so two writes or edits of one file
// could read the same original and the second would silently undo the first. Mutations of one
// real path therefore run one after another, in the order they were asked for.

const tails = new Map<string, Promise<void>>();
let resolutions: Promise<unknown> = Promise.resolve();

/**
 * Resolves the path with `resolvePath`, then runs `mutate` on the real path once every earlier
 * mutation of that path has settled. A real path is known only after an asynchronous resolution,
 * and two resolutions can finish in either order: so resolutions take their turns one after
 * another, and each call joins its path's queue in the order the calls came.
 */
export async function withFileMutationQueue<T>(
  resolvePath: () => Promise<string>,
  mutate: (realPath: string) => Promise<T>,
): Promise<T> {
  const resolved = resolutions.then(resolvePath);
  resolutions = resolved.catch(() => undefined);
  const realPath = await resolved;
  const previous = tails.get(realPath) ?? Promise.resolve();
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    release = resolve;
  });
  const tail = previous.then(() => done);
  tails.set(realPath, tail);
  try {
    await previous;
    return await mutate(realPath);
  } finally {
    release();
    if (tails.get(realPath) === tail) tails.delete(realPath);
  }
}
