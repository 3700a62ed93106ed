// Argument parsing for the learner-facing CLIs (checkpoint, practice, verify, demo). parseArgs'
// own errors are long and English; learners get one short Chinese line naming the fix instead.
import { type ParseArgsConfig, parseArgs } from "node:util";
import { UsageError } from "../usage-error.js";

export type CliOptions = NonNullable<ParseArgsConfig["options"]>;

/**
 * `argv` parsed strictly against `options`. A mistake parseArgs finds (an unknown option, an option
 * missing its value, a value given to a flag, an argument where none is taken) is a one-line
 * UsageError ending with `usage`, the command's one-line synopsis.
 */
export function parseCli<const T extends CliOptions>(
  argv: string[],
  options: T,
  usage: string,
  { positionals = true }: { positionals?: boolean } = {},
) {
  try {
    return parseArgs({ args: argv, options, allowPositionals: positionals, strict: true });
  } catch (error) {
    const problem = argumentProblem(error, options);
    if (problem === undefined) throw error;
    throw new UsageError(`${problem}。用法：${usage}`);
  }
}

/** What a parseArgs error means and how to fix it, or undefined when it is not a parseArgs error. */
function argumentProblem(error: unknown, options: CliOptions): string | undefined {
  const { code, message = "" } = error as { code?: unknown; message?: string };
  // parseArgs quotes the offending argument first, e.g. "Unknown option '--bogus'. …".
  const quoted = message.match(/'([^']*)'/)?.[1] ?? "";
  switch (code) {
    case "ERR_PARSE_ARGS_UNKNOWN_OPTION":
      return `未知选项 ${quoted}：请删掉它，或换成 --help 列出的选项`;
    case "ERR_PARSE_ARGS_UNEXPECTED_POSITIONAL":
      return `多余的参数 ${quoted}：这个命令只接受选项，请删掉它`;
    case "ERR_PARSE_ARGS_INVALID_OPTION_VALUE": {
      // The quote is "--write <value>", "-s, --scenario <value>" or "--json": take the long name.
      const name = quoted.match(/--[\w-]+/)?.[0] ?? quoted;
      return options[name.slice(2)]?.type === "string"
        ? `选项 ${name} 缺少取值：请在 ${name} 后面写上取值`
        : `选项 ${name} 不接受取值：请只写 ${name}`;
    }
    default:
      return undefined;
  }
}
