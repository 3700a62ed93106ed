// Wire fixtures under test/fixtures: `.sse` response bodies and `.http` error responses, byte for byte.
import { readdirSync, readFileSync } from "node:fs";

/** The compiled test runs from dist/test/support; the fixtures stay in the source tree. */
const FIXTURES = new URL("../../../test/fixtures/", import.meta.url);

export function fixtureBytes(name: string): Buffer {
  return readFileSync(new URL(name, FIXTURES));
}

export function fixtureNames(extension: ".sse" | ".http"): string[] {
  return readdirSync(FIXTURES)
    .filter((name) => name.endsWith(extension))
    .sort();
}

export interface HttpFixture {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** An `.http` fixture: a status line, header lines, a blank line, then the body as the server sends it. */
export function httpFixture(name: string): HttpFixture {
  const bytes = fixtureBytes(name);
  const split = bytes.indexOf("\n\n");
  const [statusLine = "", ...headerLines] = bytes.subarray(0, split).toString("utf8").split("\n");
  const status = Number(statusLine.split(" ")[1]);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const colon = line.indexOf(":");
    headers[line.slice(0, colon).trim()] = line.slice(colon + 1).trim();
  }
  return { status, headers, body: bytes.subarray(split + 2) };
}
