// Checkpoint 05 · 学习脚手架（6 个教学文件的第 2 个）：密钥不被重复说出。常量与类型已经写好；Lab 5.2 的三个函数体先抛出“尚未实现”。
// 这一段还包括 chunk-mapper.ts 里的两处 Lab 5.2（④ partial()、⑤ finish() 的 failed 分支）。完成后只运行这一段的测试：
//   npm run build -w @pi/ai
//   node --test --test-name-pattern="密钥" packages/pi-ai/dist/test/05-*.test.js
// biome-ignore-all lint/correctness: unfinished labs leave parameters and imports unused until written.
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
  // Lab 5.2 ①：去掉 undefined、去重、去掉短于 MIN_SECRET_LENGTH 的占位“密钥”，按长度从长到短排序
  // （长的先换：一个密钥可能包含另一个）。返回的函数把文本里每个密钥的每一处都换成 REDACTED，
  // 最后再把 SCHEME_CREDENTIAL 匹配到的凭据换成 `$1 [redacted]`（保留 Bearer/Basic 这个词）。
  throw new Error("Lab 5.2 失败只留一行，密钥不出现 尚未实现");
}

/** Header values that are credentials: Authorization, api-key, x-api-key, tokens. */
export function credentialHeaders(headers: Record<string, string>): string[] {
  // Lab 5.2 ②：名字匹配 /auth|key|token|secret/i 的每个头，给出两个值：原值，以及去掉开头
  // "Bearer " 或 "Basic " 之后的值（服务器常常只回显后半截）。其他头不是凭据，不给出。
  throw new Error("Lab 5.2 失败只留一行，密钥不出现 尚未实现");
}

/**
 * Values in a URL's query whose parameter name says key, token, secret, password, auth or
 * signature (`?api_key=…`, `?key=…`): they are credentials too, and every message naming the
 * URL would repeat them. Percent-encoded and plain, as either may be shown.
 */
export function urlCredentials(url: string): string[] {
  // Lab 5.2 ③：new URL(url).searchParams 里名字匹配 /key|token|secret|pass|auth|sig/i 的每个值，
  // 原样一份、encodeURIComponent 之后一份；url 解析不了时返回 []（不要抛出）。
  throw new Error("Lab 5.2 失败只留一行，密钥不出现 尚未实现");
}
