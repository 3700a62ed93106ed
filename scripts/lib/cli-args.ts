// parseArgs' own errors are long and English; learners get one short Chinese line instead.

/** The mistake a `parseArgs` error reports, e.g. `未知选项 --bogus`. */
export function argumentProblem(error: unknown): string {
  const { code, message } = error as { code?: string; message?: string };
  const quoted = message?.match(/'([^']+)'/)?.[1];
  if (code === "ERR_PARSE_ARGS_UNKNOWN_OPTION") return `未知选项 ${quoted ?? ""}`.trim();
  if (code === "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL") return `多余的参数 ${quoted ?? ""}`.trim();
  if (code === "ERR_PARSE_ARGS_INVALID_OPTION_VALUE") return `选项缺少取值或取值不对：${quoted ?? message ?? ""}`;
  return message ?? String(error);
}
