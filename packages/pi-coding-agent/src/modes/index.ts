export {
  finalText,
  interactiveMode,
  jsonMode,
  MODE_NAMES,
  type Mode,
  type ModeIO,
  type ModeName,
  type ModeRuntime,
  printMode,
  runMode,
  selectMode,
} from "./modes.js";
