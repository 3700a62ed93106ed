// How one run is presented: `text`, tiny-pi's human view (the default); chapter 13's `print`
// (`--mode print`, -p / --print), the final answer's text only; chapter 13's `json` (`--mode json`,
// or its old name `--json`), one event per line. print and json go through the learner's runMode()
// under the same names. On a terminal without a prompt the REPL shows the human view or JSON lines.
import { UsageError } from "../host/errors.js";

export type OutputMode = "text" | "json" | "print";

const MODES = ["text", "print", "json"] as const;

/** The mode `--mode`, `--json` and `-p` name together; a value or combination that makes no sense is one line. */
export function outputMode(mode: string | undefined, json: boolean, print: boolean): OutputMode {
  if (mode !== undefined && mode.trim() === "") throw new UsageError("--mode 的取值为空：例如 --mode json。");
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode)) {
    throw new UsageError(
      `--mode 只接受 text、print 或 json（收到 "${mode}"）：例如 --mode json；只要最终回答用 --mode print（-p）。`,
    );
  }
  if (json && mode !== undefined && mode !== "json") {
    throw new UsageError(`--json 和 --mode ${mode} 不能同时使用：--json 就是 --mode json，去掉其中一个。`);
  }
  if (print && mode === "text") {
    throw new UsageError("-p（--print）和 --mode text 不能同时使用：-p 就是 --mode print，去掉其中一个。");
  }
  const chosen: OutputMode = json ? "json" : ((mode as OutputMode | undefined) ?? "text");
  if (print && chosen === "json") {
    throw new UsageError(
      "-p（--print）和 --mode json 不能同时使用：-p 只打印最终回答，--mode json 每行一个事件，选其中一个。",
    );
  }
  return print ? "print" : chosen;
}
