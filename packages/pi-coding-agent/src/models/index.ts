export * from "./answered.js";
export * from "./branch-state.js";
export * from "./built-in-routes.js";
export * from "./catalogue.js";
export * from "./fallback.js";
export * from "./models-json.js";
export * from "./routing.js";
