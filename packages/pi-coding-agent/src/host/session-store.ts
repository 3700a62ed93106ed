// tiny-pi's sessions for the Runtime: chapter 10's SessionStore on a file in
// `<workspace>/.tiny-pi/sessions/<time>.jsonl` (Pi's format version 3). The Runtime appends each
// entry and waits for it; this side decides only where the file is and when it appears. A new
// session's file is created with the model's first answer, so a run that never reached the model
// (a 401, a server that is not there) writes nothing. --resume continues a file at its leaf (or at
// --leaf ID, a branch in the same file); --fork copies the branch into a new file whose header
// names the original. A branch that ends in calls without results (a run killed mid-batch) gets
// their "interrupted" results appended before the Runtime opens at it: no call is left an orphan.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import type { Message, ToolResultMessage } from "@pi/core";
import { messageEntry, newEntryId, newHeader, type SessionEntry, type SessionHeader } from "../session/entries.js";
import { InMemorySessionStore, type SessionStore } from "../session/memory-store.js";
import { appendUnder, openCallRepairs } from "../session/open-calls.js";
import type { DurableCode } from "./durable-code.js";
import { isDurableFile, openDurableFile } from "./durable-session.js";
import { UsageError } from "./errors.js";
import { piOriginal, piSummary } from "./pi-entries.js";
import { courseSessionCode, type SessionCode } from "./session-code.js";
import { isLinear, readLinearMessages, readSessionFile, readText, sessionsDir } from "./session-file.js";
import { lockSession } from "./session-lock.js";

export interface HostSession {
  /** What the Runtime appends to. */
  readonly store: SessionStore;
  /** The entry the Runtime opens at; undefined: an empty session. */
  readonly leaf: string | undefined;
  /** The session file, once there is one; undefined for --no-session and a new session before its first answer. */
  file(): string | undefined;
  /** --no-session: nothing is written. */
  readonly none?: true;
  /** Chapter 19: the file is written through this code's commit log (the course's, or a learner's practice/19). */
  readonly durable?: DurableCode;
  /** --resume of a durable file: the bytes of the torn tail a crash left, cut off on opening. */
  readonly tornBytes?: number;
}

/** A store with a file: chapter 10's JSONL store, or chapter 19's durable one. */
type FileStore = SessionStore & { readonly file: string };

/** The durable layer sessions run on `code` are written through: the course's, a learner's practice/19, or none (a learner's chapter 10 store alone). */
function durableFor(code: SessionCode): DurableCode | undefined {
  return code.durable;
}

/** The session a run writes: a new one, none (--no-session), or one continued (--resume) or copied (--fork). */
export type SessionChoice =
  | { kind: "new" }
  | { kind: "none" }
  | { kind: "resume" | "fork"; file: string; leaf?: string };

/** The session a run writes, as its configuration chose: a new one, none, or one continued (--resume) or copied (--fork). */
export async function openChosenSession(
  choice: SessionChoice,
  workspace: string,
  code?: SessionCode,
): Promise<HostSession> {
  if (choice.kind === "none") return noSession(workspace);
  if (choice.kind === "new") return newSession(workspace, undefined, code);
  return choice.kind === "fork"
    ? await forkSession(choice.file, workspace, choice.leaf, undefined, code)
    : await resumeSession(choice.file, choice.leaf, code);
}

/** --no-session: the tree lives in memory only (compaction still reads the active path). */
export function noSession(workspace: string): HostSession {
  const store = new InMemorySessionStore(newHeader(workspace));
  return { store, leaf: undefined, file: () => undefined, none: true };
}

/**
 * A new session in `workspace`; its file appears with the model's first answer. `code`, here and
 * below: chapter 10's code the session runs on, the course's or a learner's (--from).
 */
export function newSession(
  workspace: string,
  now: () => Date = () => new Date(),
  code: SessionCode = courseSessionCode,
): HostSession {
  const dir = sessionsDir(workspace);
  const file = path.join(dir, `${now().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  const durable = durableFor(code);
  const store = new DeferredStore(
    newHeader(workspace),
    () => createSessionFile(dir, file, store.header, code),
    durable,
  );
  return { store, leaf: undefined, file: () => store.file, ...(durable !== undefined ? { durable } : {}) };
}

/**
 * Chapter 10's store whose file is created only when an answer is appended: the entries before it
 * are held (and answer every question as committed ones); then the file is created and each held
 * entry written, in order, before the answer. Once created, every call goes to the file's store.
 */
class DeferredStore implements SessionStore {
  private readonly held: InMemorySessionStore;
  private created: Promise<FileStore> | undefined;
  private opened: FileStore | undefined;

  constructor(
    readonly header: SessionHeader,
    private readonly create: () => Promise<FileStore>,
    durable: DurableCode | undefined,
  ) {
    this.held = durable !== undefined ? new durable.DurableMemoryStore(header) : new InMemorySessionStore(header);
  }

  /** The file once it exists, even if writing the held entries into it then failed. */
  private createdFile: string | undefined;

  get file(): string | undefined {
    return this.createdFile;
  }

  private get current(): SessionStore {
    return this.opened ?? this.held;
  }

  entries = () => this.current.entries();
  leafId = () => this.current.leafId();
  has = (id: string) => this.current.has(id);
  pathTo = (leafId: string) => this.current.pathTo(leafId);
  messagesOnPath = (leafId: string) => this.current.messagesOnPath(leafId);

  async append(entry: SessionEntry): Promise<void> {
    if (this.opened !== undefined) return this.opened.append(entry);
    if (this.created === undefined && !isAnswer(entry)) return this.held.append(entry);
    if (this.created === undefined) {
      this.created = this.create();
      const opened = await this.created;
      this.createdFile = opened.file;
      for (const early of this.held.entries()) await opened.append(early);
      this.opened = opened;
      return opened.append(entry);
    }
    await this.created;
    return this.append(entry);
  }
}

function isAnswer(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message.role === "assistant" && entry.message.stopReason !== "error";
}

/** `<time>.jsonl`, or `<time>-2.jsonl` if that name is taken; never overwrites. */
async function createSessionFile(
  dir: string,
  file: string,
  header: SessionHeader,
  code: SessionCode,
): Promise<FileStore> {
  try {
    await mkdir(dir, { recursive: true });
    for (let n = 2; ; n += 1) {
      let store: FileStore;
      const durable = durableFor(code);
      try {
        store =
          durable !== undefined
            ? await durable.DurableSessionStore.create(file, header)
            : await code.JsonlSessionStore.create(file, header);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EEXIST") {
          // The file is new (an existing one is EEXIST) and holds no committed entry: a disk that
          // filled while the header was written would otherwise leave an empty file --resume refuses.
          await rm(file, { force: true });
          throw error;
        }
        file = file.replace(/(-\d+)?\.jsonl$/, `-${n}.jsonl`);
        continue;
      }
      lockSession(file);
      return store;
    }
  } catch (error) {
    const errorCode = (error as NodeJS.ErrnoException).code ?? "未知错误";
    throw new Error(`无法创建会话文件 ${file}（${errorCode}）：这次运行的对话没有保存；请检查 ${dir} 是否可写`);
  }
}

/** Continues the session in `file` at its leaf, or at `leafId`: the next message makes a branch there. */
export async function resumeSession(
  file: string,
  leafId?: string,
  code: SessionCode = courseSessionCode,
): Promise<HostSession> {
  const durable = durableFor(code);
  if (durable !== undefined && isDurableFile(file)) {
    lockSession(file);
    const store = await openDurableFile(file, code, durable);
    const leaf = chosenLeaf(store, file, leafId);
    // Chapter 19's recovery answers the open calls once the tools are known (host/durable-session.ts).
    return { ...opened(store, leaf ?? undefined), durable, tornBytes: store.tornBytesDropped };
  }
  const recovered = readSessionFile(file, code);
  if (recovered.tornTail !== undefined) {
    throw new UsageError(
      `会话文件 ${file} 第 ${recovered.tornTail.line} 行没有写完（上次运行被打断）：--resume 不在残行后追加；用 --fork ${file} 从已提交的 ${recovered.entries.length} 个条目开一个新会话，原文件不变。`,
    );
  }
  lockSession(file);
  const store = await code.JsonlSessionStore.open(file, code.readEntry);
  const leaf = chosenLeaf(store, file, leafId);
  return opened(store, leaf === null ? undefined : await repairedLeaf(store, leaf, code, file));
}

/** A new session in `workspace` holding the branch of `source` up to its leaf (or `leafId`); the header names `source`. */
export async function forkSession(
  source: string,
  workspace: string,
  leafId?: string,
  now: () => Date = () => new Date(),
  code: SessionCode = courseSessionCode,
): Promise<HostSession> {
  const content = readText(source);
  const entries = isLinear(content)
    ? linearEntries(readLinearMessages(content, source))
    : forkedBranch(source, leafId, code);
  const dir = sessionsDir(workspace);
  const file = path.join(dir, `${now().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  let store: FileStore;
  try {
    store = await createSessionFile(dir, file, newHeader(workspace, source), code);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  for (const entry of entries) await store.append(entry);
  const leaf = store.leafId();
  const forked = opened(store, leaf === null ? undefined : await repairedLeaf(store, leaf, code));
  const durable = durableFor(code);
  return durable !== undefined ? { ...forked, durable } : forked;
}

function opened(store: FileStore, leaf: string | undefined): HostSession {
  return { store, leaf, file: () => store.file };
}

/**
 * REPL /branch ID: the leaf a Runtime opens at to continue from entry `id` of `session` (its
 * open calls answered first); one line when there is no such entry.
 */
export async function branchLeaf(
  session: HostSession,
  id: string,
  code: SessionCode = courseSessionCode,
): Promise<string> {
  if (session.none) throw new UsageError("--no-session：这次运行不记录会话，不能切换分支。");
  if (!session.store.has(id)) throw new UsageError(`会话里没有 id 为 ${id} 的条目：用 /tree 查看条目的 id。`);
  return repairedLeaf(session.store, id, code);
}

function forkedBranch(source: string, leafId: string | undefined, code: SessionCode): SessionEntry[] {
  const { entries } = readSessionFile(source, code);
  const leaf = leafId ?? entries.at(-1)?.id;
  if (leaf === undefined) return [];
  if (!entries.some((entry) => entry.id === leaf)) throw leafMissing(leaf, source);
  let branch: SessionEntry[];
  try {
    branch = code.pathTo(entries, leaf);
  } catch (error) {
    throw new UsageError(`会话文件 ${source}：${(error as Error).message}`);
  }
  const pi = branch.map(piOriginal).find((original) => original !== undefined);
  if (pi !== undefined) {
    throw new UsageError(
      `--fork 只复制 tiny-pi 自己的条目，这条分支上有 Pi 写的条目 ${pi.id}（${piSummary(pi).kind}）：用 --resume ${source} 继续这个会话。`,
    );
  }
  return branch;
}

/** A linear file's messages as one chain of entries. */
function linearEntries(messages: Message[]): SessionEntry[] {
  const entries: SessionEntry[] = [];
  const ids = new Set<string>();
  for (const message of messages) {
    const id = newEntryId((candidate) => ids.has(candidate));
    ids.add(id);
    entries.push(messageEntry(message, entries.at(-1)?.id ?? null, id));
  }
  return entries;
}

function chosenLeaf(store: SessionStore, file: string, leafId: string | undefined): string | null {
  if (leafId === undefined) return store.leafId();
  if (!store.has(leafId)) throw leafMissing(leafId, file);
  return leafId;
}

function leafMissing(leafId: string, file: string): UsageError {
  return new UsageError(`--leaf ${leafId} 不在会话 ${file} 里：用 tiny-pi tree ${file} 查看条目的 id。`);
}

/**
 * `leaf`, or the last of the interrupted results appended under it for the calls its branch ends
 * with unanswered. A branch the session's code cannot project is one line naming the file.
 */
async function repairedLeaf(
  store: SessionStore,
  leaf: string,
  code: SessionCode,
  file: string = (store as { file?: string }).file ?? "",
): Promise<string> {
  let repairs: ToolResultMessage[];
  try {
    store.messagesOnPath(leaf);
    repairs = openCallRepairs(store.pathTo(leaf), code.interruptedResult);
  } catch (error) {
    throw new UsageError(`会话文件 ${file}：${(error as Error).message}`);
  }
  return appendUnder(store, leaf, repairs);
}
