// The course manifest (packages/pi-course/checkpoints/manifest.json) is the one description of
// every checkpoint. This module is its one reader: it checks the file against its JSON Schema
// (manifest.schema.json beside it, which editors use too) and derives the fields that follow
// from the others, so no copy of them can drift.
import { readFileSync } from "node:fs";
import path from "node:path";
import { Ajv, type ErrorObject } from "ajv";

export interface Lab {
  id: string;
  /** The title in the lab's error, `Lab <id> <title> 尚未实现`. */
  title: string;
  /** The guide's heading for the lab, `实践 <id> · <practice>`. */
  practice: string;
  /** Test-name pattern that selects the lab's focused tests. */
  pattern: string;
  /** How many focused tests the pattern selects. */
  expected: number;
  hint: string;
}

export interface Diagnostic {
  title: string;
  description: string;
  file: string;
  find: string;
  replace: string;
  pattern: string;
  failing: number;
}

/** A checkpoint as manifest.json writes it. */
export interface CheckpointEntry {
  id: string;
  title: string;
  chapter: string;
  /** The chapter guide kept in this repository (a Markdown path); absent when the chapter is published elsewhere. */
  guide?: string;
  package: string;
  /** The code before the chapter. Only the first checkpoint lists its `files`; every later parent is the previous target. */
  parent: { description: string; files?: string[] };
  /** The parent plus `adds`, with the files the chapter changes in their new version (old ones in `checkpoints/<id>/before/`). */
  target: { description: string; adds: string[] };
  teachingFiles: string[];
  /** Teaching file → its starter, both relative to the repository root. */
  starters: Record<string, string>;
  focusedTest: string;
  labs: Lab[];
  diagnostic: Diagnostic;
}

/** A checkpoint with the fields that follow from its entry. */
export interface Checkpoint extends CheckpointEntry {
  /** Always 重建: the learner rebuilds the teaching files from starters. */
  mode: string;
  /** The compiled focused tests as the chapter runs them, e.g. `packages/pi-course/dist/test/07-*.test.js`. */
  focusedRun: string;
  /** The chapter's build command, `npm run build -w <package>`. */
  build: string;
  /** The first lab's error, which every focused test of the starter fails with first. */
  firstRed: string;
}

export interface Manifest {
  about?: string[];
  checkpoints: Checkpoint[];
}

/** Fields that earlier manifests wrote and that are now derived. */
const DERIVED_FIELDS = ["firstRed", "build", "focusedRun", "mode"];

/** The manifest cannot be used: each problem is one line naming the field and the fix. */
export class ManifestError extends Error {
  override name = "ManifestError";
  constructor(
    readonly file: string,
    readonly problems: string[],
  ) {
    super(`${file} 有 ${problems.length} 处问题：\n${problems.map((line) => `  ${line}`).join("\n")}`);
  }
}

/** The error a lab's unfinished branch throws in the starter, e.g. `Lab 7.1 收集模型终态 尚未实现`. */
export function labError(lab: Pick<Lab, "id" | "title">): string {
  return `Lab ${lab.id} ${lab.title} 尚未实现`;
}

/** The total number of focused tests: the sum of the labs' expected counts. */
export function focusedTestCount(checkpoint: Pick<Checkpoint, "labs">): number {
  return checkpoint.labs.reduce((sum, lab) => sum + lab.expected, 0);
}

/** `packages/x/test/07-y.test.ts` of checkpoint 07 → `packages/x/dist/test/07-*.test.js`. */
export function focusedRunOf(entry: Pick<CheckpointEntry, "id" | "focusedTest">): string {
  const folder = entry.focusedTest.split("/").slice(0, 2).join("/");
  return `${folder}/dist/test/${entry.id}-*.test.js`;
}

export function derive(entry: CheckpointEntry): Checkpoint {
  const [first] = entry.labs;
  return {
    ...entry,
    mode: "重建",
    focusedRun: focusedRunOf(entry),
    build: `npm run build -w ${entry.package}`,
    firstRed: first === undefined ? "" : labError(first),
  };
}

/**
 * Reads and checks `manifestPath` against `manifest.schema.json` in the same folder; throws a
 * ManifestError whose lines name every field that is missing, mistyped, unknown or derived.
 */
export function readManifest(manifestPath: string): Manifest {
  const shown = path.basename(manifestPath);
  const json = parseJson(manifestPath, shown);
  const validate = schemaValidator(path.join(path.dirname(manifestPath), "manifest.schema.json"));
  if (!validate(json))
    throw new ManifestError(
      shown,
      (validate.errors ?? []).map((error) => schemaProblem(json, error)),
    );
  const entries = json as { about?: string[]; checkpoints: CheckpointEntry[] };
  return { ...entries, checkpoints: entries.checkpoints.map(derive) };
}

function parseJson(file: string, shown: string): unknown {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (error) {
    throw new ManifestError(shown, [`读不到 ${file}（${(error as NodeJS.ErrnoException).code ?? String(error)}）`]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new ManifestError(shown, [`不是合法的 JSON：${(error as Error).message}`]);
  }
}

const validators = new Map<string, ReturnType<Ajv["compile"]>>();

function schemaValidator(schemaPath: string): ReturnType<Ajv["compile"]> {
  let validate = validators.get(schemaPath);
  if (validate === undefined) {
    const schema = JSON.parse(readFileSync(schemaPath, "utf8")) as object;
    validate = new Ajv({ allErrors: true, strict: true, allowUnionTypes: true }).compile(schema);
    validators.set(schemaPath, validate);
  }
  return validate;
}

/** One ajv error as a line: where (`checkpoint 07 lab 7.2 "expected"`), what is wrong, and the fix. */
function schemaProblem(json: unknown, error: ErrorObject): string {
  const where = locate(json, error.instancePath);
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case "additionalProperties": {
      const field = String(params.additionalProperty);
      if (DERIVED_FIELDS.includes(field)) return `${where}："${field}" 由清单推出，不再手写：删掉这个字段`;
      return `${where}：没有 "${field}" 这个字段（拼写？字段见 manifest.schema.json）`;
    }
    case "required":
      return `${where}：缺少 "${String(params.missingProperty)}"`;
    case "pattern":
      return `${where}：${JSON.stringify(valueAt(json, error.instancePath))} 不合格式 ${String(params.pattern)}`;
    default:
      return `${where}：${error.message ?? error.keyword}`;
  }
}

/** A JSON pointer as the instructor reads it: `checkpoint 07 lab 7.2 "expected"`. */
function locate(json: unknown, pointer: string): string {
  const parts = pointer.split("/").slice(1);
  const names: string[] = [];
  let node: unknown = json;
  for (const [index, part] of parts.entries()) {
    node = (node as Record<string, unknown> | undefined)?.[part];
    const parent = parts[index - 1];
    const id = (node as { id?: unknown } | undefined)?.id;
    if (parent === "checkpoints") names.push(`checkpoint ${typeof id === "string" ? id : `#${part}`}`);
    else if (parent === "labs") names.push(`lab ${typeof id === "string" ? id : `#${Number(part) + 1}`}`);
    else if (part !== "checkpoints" && part !== "labs") names.push(`"${part}"`);
  }
  return names.length === 0 ? "清单" : names.join(" ");
}

function valueAt(json: unknown, pointer: string): unknown {
  return pointer
    .split("/")
    .slice(1)
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part], json);
}
