// Which extensions the user trusted: one entry per real path with the SHA-256 of the content it
// had when it was trusted, in <tiny-pi home>/trusted-extensions.json. A changed file no longer
// matches its hash, so it is asked about again; nothing is ever trusted by its name alone.
import { createHash } from "node:crypto";
import { mkdirSync, readFileSync, realpathSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface TrustRecord {
  /** Whether `file` (any path to it) is trusted with its current content. */
  trusted(file: string): boolean;
  /** Records `file` as trusted with its current content. */
  trust(file: string): void;
}

interface Entry {
  sha256: string;
}

export const TRUST_FILE = "trusted-extensions.json";

export function trustRecord(home: string): TrustRecord {
  const record = fingerprintRecord(home, TRUST_FILE);
  const fingerprint = (extension: string) => {
    const real = realpathSync(extension);
    return { key: real, sha256: sha256Of(readFileSync(real)) };
  };
  return {
    trusted: (extension) => record.matches(fingerprint(extension)),
    trust: (extension) => record.remember(fingerprint(extension)),
  };
}

export function sha256Of(content: string | Buffer): string {
  return createHash("sha256").update(content).digest("hex");
}

/** A record of keys each trusted with one content hash (extensions, MCP server entries). */
export interface FingerprintRecord {
  matches(fingerprint: { key: string; sha256: string }): boolean;
  remember(fingerprint: { key: string; sha256: string }): void;
}

export function fingerprintRecord(home: string, name: string): FingerprintRecord {
  const file = path.join(home, name);
  const entries = readEntries(file);
  return {
    matches: ({ key, sha256 }) => entries[key]?.sha256 === sha256,
    remember({ key, sha256 }) {
      entries[key] = { sha256 };
      mkdirSync(home, { recursive: true });
      // Written whole beside the record, then renamed over it: an interrupted run leaves the old record.
      const temp = `${file}.${process.pid}.tmp`;
      writeFileSync(temp, `${JSON.stringify(entries, null, 2)}\n`);
      renameSync(temp, file);
    },
  };
}

/** The record as stored; a missing or unreadable one trusts nothing (so everything is asked again). */
function readEntries(file: string): Record<string, Entry> {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return {};
  }
  try {
    const parsed: unknown = JSON.parse(text);
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) return {};
    const entries: Record<string, Entry> = {};
    for (const [real, entry] of Object.entries(parsed as Record<string, unknown>)) {
      const sha256 = (entry as { sha256?: unknown } | null)?.sha256;
      if (typeof sha256 === "string") entries[real] = { sha256 };
    }
    return entries;
  } catch {
    return {};
  }
}
