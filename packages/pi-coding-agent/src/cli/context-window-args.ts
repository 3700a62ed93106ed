// --context-window N and --reserve N: whole numbers of tokens, checked here so a mistake is one
// line naming the fix before anything runs. Which window is then in force is context-window.ts.
import { UsageError } from "../host/errors.js";

export function windowOptions(
  window: string | undefined,
  reserve: string | undefined,
): { contextWindow?: number; reserve?: number } {
  const contextWindow =
    window === undefined ? undefined : tokens(window, "--context-window", 1, "--context-window 32768");
  const reserveTokens = reserve === undefined ? undefined : tokens(reserve, "--reserve", 0, "--reserve 4096");
  if (contextWindow !== undefined && reserveTokens !== undefined && reserveTokens >= contextWindow) {
    throw new UsageError(
      `--reserve ${reserveTokens} 不小于 --context-window ${contextWindow}：预留给回答的 token 要比窗口小，例如 --reserve ${Math.floor(contextWindow / 4)}。`,
    );
  }
  return {
    ...(contextWindow !== undefined ? { contextWindow } : {}),
    ...(reserveTokens !== undefined ? { reserve: reserveTokens } : {}),
  };
}

function tokens(value: string, flag: string, least: number, example: string): number {
  const count = /^\d+$/.test(value.trim()) ? Number(value.trim()) : Number.NaN;
  if (!Number.isSafeInteger(count) || count < least) {
    throw new UsageError(`${flag} 要一个 ≥ ${least} 的整数（token 数，收到 "${value}"），例如 ${example}。`);
  }
  return count;
}
