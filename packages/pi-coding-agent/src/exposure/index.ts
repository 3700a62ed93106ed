export { ExposedRegistry, type Exposure, notDeclaredLine } from "./registry.js";
export { rankTools, SEARCH_LIMIT, searchText, TOOL_SEARCH, terms, toolSearchTool } from "./tool-search.js";
export {
  declaredOn,
  parseToolChange,
  parseToolStateEntry,
  recordsToolState,
  TOOL_STATE,
  type ToolChange,
  toolChange,
  toolStateEntry,
} from "./tool-state.js";
export { type ExposureRecorder, exposureRecorder, pendingChange, restoreActivation } from "./transcript.js";
