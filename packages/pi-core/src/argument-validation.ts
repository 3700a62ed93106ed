import { Ajv, type ValidateFunction } from "ajv";
import { errorMessageOf } from "./errors.js";

// One validator compiled per schema object: tools keep their schema for life.
const ajv = new Ajv({ allErrors: true, strict: false });
const compiled = new WeakMap<object, ValidateFunction>();

/** Returns undefined when `args` satisfy the JSON Schema, else a one-line reason. */
export function argumentProblem(schema: object, args: unknown): string | undefined {
  let validate = compiled.get(schema);
  if (validate === undefined) {
    try {
      validate = ajv.compile(schema);
    } catch (error) {
      return `the tool's parameters are not a valid JSON Schema (${errorMessageOf(error)})`;
    }
    compiled.set(schema, validate);
  }
  if (validate(args)) return undefined;
  return ajv.errorsText(validate.errors, { dataVar: "arguments" });
}
