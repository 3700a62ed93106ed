// Given (not a lab): tells a binary file from text by its first bytes.

const SIGNATURES: [kind: string, magic: number[]][] = [
  ["PNG image", [0x89, 0x50, 0x4e, 0x47]],
  ["JPEG image", [0xff, 0xd8, 0xff]],
  ["GIF image", [0x47, 0x49, 0x46, 0x38]],
  ["PDF document", [0x25, 0x50, 0x44, 0x46, 0x2d]],
  ["ZIP archive", [0x50, 0x4b, 0x03, 0x04]],
  ["gzip archive", [0x1f, 0x8b]],
  ["ELF executable", [0x7f, 0x45, 0x4c, 0x46]],
  ["WebAssembly module", [0x00, 0x61, 0x73, 0x6d]],
];

/** How many leading bytes binaryKind() looks at. */
export const SNIFF_BYTES = 8192;

/** The detected kind of a binary file from its first bytes, or undefined for text. */
export function binaryKind(head: Buffer): string | undefined {
  for (const [kind, magic] of SIGNATURES) {
    if (magic.every((byte, index) => head[index] === byte)) return kind;
  }
  if (
    head
      .subarray(0, 12)
      .toString("latin1")
      .match(/^RIFF....WEBP$/s)
  )
    return "WebP image";
  return head.includes(0) ? `NUL bytes in its first ${SNIFF_BYTES / 1024} KB` : undefined;
}
