// tiny-pi's sessions on chapter 10's session tree: `<workspace>/.tiny-pi/sessions/<time>.jsonl`
// in Pi's format version 3. Each message becomes an entry under the current leaf as it forms,
// written by the JSONL store's one FIFO writer, so a run stopped hard keeps everything it had
// committed. A new session's file is created only once the model has answered: a run that never
// reached the model (a 401, a server that is not there) writes nothing. --resume continues a file
// at its leaf (or at --leaf ID, which makes a branch in the same file); --fork copies the branch
// into a new file whose header names the original.
import { mkdir, rm } from "node:fs/promises";
import path from "node:path";
import { type AssistantMessage, type Message, type ToolResultMessage, toolCallsOf } from "@pi/core";
import { messageEntry, newEntryId, newHeader, type SessionEntry, type SessionHeader } from "../session/entries.js";
import type { JsonlSessionStore } from "../session/jsonl-store.js";
import { UsageError } from "./errors.js";
import { courseSessionCode, type SessionCode } from "./session-code.js";
import { isLinear, readLinearMessages, readSessionFile, readText, sessionsDir } from "./session-file.js";
import { lockSession } from "./session-lock.js";
import { formatTree } from "./session-view.js";

export interface SessionStore {
  /** The session file, once there is one. */
  readonly file: string | undefined;
  /** Appends the messages, in order, under the current leaf. */
  append(messages: Message[]): void;
  /** Resolves once every append so far is written: with nothing, or the line saying why the session stopped being saved. */
  flushed(): Promise<string | undefined>;
  /** The session's tree with the leaf marked, for /tree. */
  tree(): Promise<string>;
  /** Moves the leaf to `id` (a later append makes a branch there); resolves with that branch's messages. */
  branch(id: string): Promise<Message[]>;
  /** The active path, root → leaf, including entries not written yet (what compaction reads). */
  path(): SessionEntry[];
  /** Appends a non-message entry (a compaction) under the leaf; it becomes the leaf. */
  appendEntry(entry: SessionEntry): void;
  /** An entry id the session does not hold yet. */
  newId(): string;
}

export interface OpenedSession {
  session: SessionStore;
  /** The conversation so far on the leaf's branch, every tool call paired. */
  history: Message[];
}

/** A store that keeps nothing on disk (--no-session): the active path lives in memory only, for compaction. */
export function noSession(): SessionStore {
  return new TreeSession(undefined, null, [], courseSessionCode);
}

class TreeSession implements SessionStore {
  private store: JsonlSessionStore | undefined;
  private creating: Promise<JsonlSessionStore> | undefined;
  private writes: Promise<void> = Promise.resolve();
  private failure: string | undefined;
  /** New sessions: entries kept until the model's first answer. */
  private pending: SessionEntry[] | undefined;
  private readonly ids = new Set<string>();
  /** Every entry, written or not: the active path is read from it. */
  private readonly all: SessionEntry[] = [];

  constructor(
    /** Undefined: --no-session, nothing is written. */
    private readonly opened: JsonlSessionStore | PendingFile | undefined,
    private leaf: string | null,
    /** Results for calls the leaf's branch left open: written before the next message. */
    private repairs: Message[],
    private readonly code: SessionCode,
  ) {
    if (opened !== undefined && !isPending(opened)) {
      this.store = opened;
      for (const entry of opened.entries()) {
        this.ids.add(entry.id);
        this.all.push(entry);
      }
    } else if (opened !== undefined) {
      this.pending = [];
    }
  }

  /** Undefined until the file exists: a new session's is created with the model's first answer. */
  get file(): string | undefined {
    return this.store?.file;
  }

  append(messages: Message[]): void {
    for (const message of [...this.repairs.splice(0), ...messages]) {
      // The file holds what JSON.stringify writes: a field set to undefined is simply absent.
      this.add(messageEntry(JSON.parse(JSON.stringify(message)), this.leaf, this.newId()));
    }
  }

  appendEntry(entry: SessionEntry): void {
    this.append([]);
    this.add(JSON.parse(JSON.stringify(entry)));
  }

  path(): SessionEntry[] {
    return this.leaf === null ? [] : this.code.pathTo(this.all, this.leaf);
  }

  flushed(): Promise<string | undefined> {
    return this.writes.then(() => this.failure);
  }

  async tree(): Promise<string> {
    await this.writes;
    if (this.opened === undefined) return "（--no-session：这次运行不记录会话，没有会话树）";
    if (this.store === undefined) return "（会话还没有条目：模型第一次回答时才创建会话文件）";
    return formatTree(this.store.entries(), this.leaf, this.store.file);
  }

  async branch(id: string): Promise<Message[]> {
    await this.writes;
    if (this.opened === undefined) throw new UsageError("--no-session：这次运行不记录会话，不能切换分支。");
    if (this.store === undefined || !this.store.has(id)) {
      throw new UsageError(`会话里没有 id 为 ${id} 的条目：用 /tree 查看条目的 id。`);
    }
    const opened = branchAt(this.store, id, this.code);
    this.leaf = id;
    this.repairs = opened.repairs;
    return opened.history;
  }

  newId(): string {
    const id = newEntryId((candidate) => this.ids.has(candidate));
    this.ids.add(id);
    return id;
  }

  private add(entry: SessionEntry): void {
    this.ids.add(entry.id);
    this.leaf = entry.id;
    this.all.push(entry);
    if (this.pending === undefined) {
      this.write(entry);
      return;
    }
    this.pending.push(entry);
    if (!this.pending.some(isAnswer)) return;
    const entries = this.pending;
    this.pending = undefined;
    if (this.opened !== undefined && isPending(this.opened)) this.creating = this.opened.create();
    for (const held of entries) this.write(held);
  }

  private write(entry: SessionEntry): void {
    if (this.opened === undefined) return;
    this.writes = this.writes.then(async () => {
      if (this.failure !== undefined) return;
      try {
        this.store ??= await this.creating;
        await this.store?.append(entry);
      } catch (error) {
        this.failure = (error as Error).message.split("\n")[0];
      }
    });
  }
}

/** A new session's file, created with the model's first answer. */
interface PendingFile {
  file: string;
  create: () => Promise<JsonlSessionStore>;
}

function isPending(opened: JsonlSessionStore | PendingFile): opened is PendingFile {
  return !("entries" in opened);
}

function isAnswer(entry: SessionEntry): boolean {
  return entry.type === "message" && entry.message.role === "assistant" && entry.message.stopReason !== "error";
}

/**
 * A new session in `workspace`; its file appears with the model's first answer. `code`, here and
 * below: chapter 10's code the session runs on, the course's or a learner's (--from).
 */
export function newSession(
  workspace: string,
  now: () => Date = () => new Date(),
  code: SessionCode = courseSessionCode,
): SessionStore {
  const dir = sessionsDir(workspace);
  const file = path.join(dir, `${now().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  const create = () => createSessionFile(dir, file, newHeader(workspace), code);
  return new TreeSession({ file, create }, null, [], code);
}

/** `<time>.jsonl`, or `<time>-2.jsonl` if that name is taken; never overwrites. */
async function createSessionFile(
  dir: string,
  file: string,
  header: SessionHeader,
  code: SessionCode,
): Promise<JsonlSessionStore> {
  try {
    await mkdir(dir, { recursive: true });
    for (let n = 2; ; n += 1) {
      let store: JsonlSessionStore;
      try {
        store = await code.JsonlSessionStore.create(file, header);
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
): Promise<OpenedSession> {
  const recovered = readSessionFile(file, code.recoverSession);
  if (recovered.tornTail !== undefined) {
    throw new UsageError(
      `会话文件 ${file} 第 ${recovered.tornTail.line} 行没有写完（上次运行被打断）：--resume 不在残行后追加；用 --fork ${file} 从已提交的 ${recovered.entries.length} 个条目开一个新会话，原文件不变。`,
    );
  }
  lockSession(file);
  const store = await code.JsonlSessionStore.open(file);
  const leaf = chosenLeaf(store, file, leafId);
  const opened = leaf === null ? { history: [], repairs: [] } : branchAt(store, leaf, code, file);
  return { session: new TreeSession(store, leaf, opened.repairs, code), history: opened.history };
}

/** A new session in `workspace` holding the branch of `source` up to its leaf (or `leafId`); the header names `source`. */
export async function forkSession(
  source: string,
  workspace: string,
  leafId?: string,
  now: () => Date = () => new Date(),
  code: SessionCode = courseSessionCode,
): Promise<OpenedSession> {
  const content = readText(source);
  const entries = isLinear(content)
    ? linearEntries(readLinearMessages(content, source))
    : forkedBranch(source, leafId, code);
  const dir = sessionsDir(workspace);
  const file = path.join(dir, `${now().toISOString().replace(/[:.]/g, "-")}.jsonl`);
  let store: JsonlSessionStore;
  try {
    store = await createSessionFile(dir, file, newHeader(workspace, source), code);
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  for (const entry of entries) await store.append(entry);
  const leaf = store.leafId();
  const opened = leaf === null ? { history: [], repairs: [] } : branchAt(store, leaf, code);
  return { session: new TreeSession(store, leaf, opened.repairs, code), history: opened.history };
}

function forkedBranch(source: string, leafId: string | undefined, code: SessionCode): SessionEntry[] {
  const { entries } = readSessionFile(source, code.recoverSession);
  const leaf = leafId ?? entries.at(-1)?.id;
  if (leaf === undefined) return [];
  if (!entries.some((entry) => entry.id === leaf)) throw leafMissing(leaf, source);
  try {
    return code.pathTo(entries, leaf);
  } catch (error) {
    throw new UsageError(`会话文件 ${source}：${(error as Error).message}`);
  }
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

function chosenLeaf(store: JsonlSessionStore, file: string, leafId: string | undefined): string | null {
  if (leafId === undefined) return store.leafId();
  if (!store.has(leafId)) throw leafMissing(leafId, file);
  return leafId;
}

function leafMissing(leafId: string, file: string): UsageError {
  return new UsageError(`--leaf ${leafId} 不在会话 ${file} 里：用 tiny-pi tree ${file} 查看条目的 id。`);
}

/** The branch at `leaf` as messages, and the aborted results its open calls still need in the file. */
function branchAt(
  store: JsonlSessionStore,
  leaf: string,
  code: SessionCode,
  file: string = store.file,
): { history: Message[]; repairs: ToolResultMessage[] } {
  try {
    return { history: store.messagesOnPath(leaf), repairs: openCallRepairs(store.pathTo(leaf), code) };
  } catch (error) {
    throw new UsageError(`会话文件 ${file}：${(error as Error).message}`);
  }
}

/** Aborted results for the calls the branch ends with unanswered (a run stopped hard mid-batch). */
function openCallRepairs(branch: SessionEntry[], code: SessionCode): ToolResultMessage[] {
  const messages = branch.flatMap((entry) => (entry.type === "message" ? [entry.message] : []));
  const answered = new Set<string>();
  let index = messages.length - 1;
  for (let message = messages[index]; message?.role === "toolResult"; message = messages[--index]) {
    answered.add(message.toolCallId);
  }
  const assistant = messages[index];
  if (assistant?.role !== "assistant") return [];
  return toolCallsOf(assistant as AssistantMessage)
    .filter((call) => !answered.has(call.id))
    .map((call) => code.interruptedResult(call, assistant));
}
