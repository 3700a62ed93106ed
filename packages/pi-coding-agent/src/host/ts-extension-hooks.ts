// Module hooks (node:module register) for TypeScript extensions: tsx transforms .ts, but it takes a
// .ts file's format from the nearest package.json, so outside a "type": "module" package an
// extension's `export default` would come back wrapped as CommonJS. Every .ts file inside an
// extension folder is an ES module here, wherever the folder is.
let folders: string[] = [];

/** `data`: the file: URLs of the extension folders, each ending in "/". */
export function initialize(data: { folders: string[] }): void {
  folders = data.folders;
}

interface Resolved {
  url: string;
  format?: string | null;
}

export async function resolve(
  specifier: string,
  context: object,
  next: (specifier: string, context: object) => Promise<Resolved>,
): Promise<Resolved> {
  const resolved = await next(specifier, context);
  const ours = resolved.url.endsWith(".ts") && folders.some((folder) => resolved.url.startsWith(folder));
  return ours ? { ...resolved, format: "module" } : resolved;
}
