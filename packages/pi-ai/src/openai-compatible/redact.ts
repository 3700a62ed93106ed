// The key is never repeated back. A 401 body may echo "Bearer sk-…"; copied into the error message
// it would reach the terminal, --json and the session file. Every failure message is redacted here.

export type Redact = (text: string) => string;

export const REDACTED = "[redacted]";

/**
 * Shorter "keys" are placeholders (local servers take any, e.g. "x"): replacing every "x" would
 * garble the message and protect nothing.
 */
const MIN_SECRET_LENGTH = 4;

/** A credential after an auth scheme, as servers echo request headers. */
const SCHEME_CREDENTIAL = /\b(Bearer|Basic)\s+[^\s"',;)]+/gi;

/** Replaces each of `secrets` (and any `Bearer …`/`Basic …` credential) in a text with [redacted]. */
export function secretRedactor(secrets: readonly (string | undefined)[]): Redact {
  const exact = [...new Set(secrets)]
    .filter((secret): secret is string => secret !== undefined && secret.length >= MIN_SECRET_LENGTH)
    .sort((a, b) => b.length - a.length);
  return (text) => {
    let redacted = text;
    for (const secret of exact) redacted = redacted.split(secret).join(REDACTED);
    return redacted.replace(SCHEME_CREDENTIAL, `$1 ${REDACTED}`);
  };
}

/** Header values that are credentials: Authorization, api-key, x-api-key, tokens. */
export function credentialHeaders(headers: Record<string, string>): string[] {
  return Object.entries(headers).flatMap(([name, value]) =>
    /auth|key|token|secret/i.test(name) ? [value, value.replace(/^\s*(Bearer|Basic)\s+/i, "")] : [],
  );
}

/**
 * Values in a URL's query whose parameter name says key, token, secret, password, auth or
 * signature (`?api_key=…`, `?key=…`): they are credentials too, and every message naming the
 * URL would repeat them. Percent-encoded and plain, as either may be shown.
 */
export function urlCredentials(url: string): string[] {
  let query: URLSearchParams;
  try {
    query = new URL(url).searchParams;
  } catch {
    return [];
  }
  return [...query]
    .filter(([name]) => /key|token|secret|pass|auth|sig/i.test(name))
    .flatMap(([, value]) => [value, encodeURIComponent(value)]);
}
