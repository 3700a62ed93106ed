// tiny-pi's model in use: one id of the catalogue (a physical model, or a virtual model routing to
// physical ones), switched by /model or restored from the branch. The Runtime is given one Model
// that forwards each request to the selection of the moment, so a switch needs no new Runtime;
// a physical selection is called directly (no routing, no extra step), a virtual one routes.
import type { Model } from "@pi/core";
import {
  type Connect,
  catalogueModel,
  changeAfterTurn,
  createModelCatalogue,
  type FallbackNote,
  isReply,
  type ModelCatalogue,
  type ModelPrices,
  modelChangeEntry,
  modelInForce,
  newestChoice,
  type PhysicalModel,
  parseModelsJson,
  physicalId,
  resolveRoute,
  thinkingLevelChangeEntry,
  thinkingLevelInForce,
} from "../models/index.js";
import type { ModelIdentity } from "./pi-fields.js";

/** Chapter 18's code tiny-pi runs: the catalogue, the routing and the branch's state (the course's, or a learner's with --from). */
export interface ModelsCode {
  parseModelsJson: typeof parseModelsJson;
  createModelCatalogue: typeof createModelCatalogue;
  resolveRoute: typeof resolveRoute;
  catalogueModel: typeof catalogueModel;
  modelInForce: typeof modelInForce;
  thinkingLevelInForce: typeof thinkingLevelInForce;
  modelChangeEntry: typeof modelChangeEntry;
  thinkingLevelChangeEntry: typeof thinkingLevelChangeEntry;
  changeAfterTurn: typeof changeAfterTurn;
}

export const courseModelsCode: ModelsCode = {
  parseModelsJson,
  createModelCatalogue,
  resolveRoute,
  catalogueModel,
  modelInForce,
  thinkingLevelInForce,
  modelChangeEntry,
  thinkingLevelChangeEntry,
  changeAfterTurn,
};

export class ModelSwitch {
  readonly catalogue: ModelCatalogue;
  /** Whose catalogue, routing and branch state run. */
  readonly code: ModelsCode;
  private readonly connect: Connect;
  private readonly connections = new Map<string, Model>();
  private selection: string;
  private conversation!: Model;
  private summaries!: Model;
  /** The physical id in force on the branch before the running turn. */
  private inForce: string | undefined;
  private readonly onFallback: (note: FallbackNote) => void;

  /** Every request of the conversation goes through this Model. */
  readonly model: Model = { stream: (request, options) => this.conversation.stream(request, options) };
  /** Compaction summaries go through this one (a virtual model may route them elsewhere). */
  readonly summaryModel: Model = { stream: (request, options) => this.summaries.stream(request, options) };

  constructor(
    catalogue: ModelCatalogue,
    connect: Connect,
    selection: string,
    onFallback: (note: FallbackNote) => void,
    code: ModelsCode = courseModelsCode,
  ) {
    this.catalogue = catalogue;
    this.code = code;
    this.connect = (model) => {
      let connection = this.connections.get(model.id);
      if (connection === undefined) {
        connection = connect(model);
        this.connections.set(model.id, connection);
      }
      return connection;
    };
    this.onFallback = onFallback;
    this.selection = selection;
    this.select(selection);
  }

  /** Selects catalogue id `id` (the caller checked it is one). */
  select(id: string): void {
    this.selection = id;
    const routing = { connect: this.connect, previous: () => this.inForce, onFallback: this.onFallback };
    this.conversation = this.code.catalogueModel(this.catalogue, id, routing);
    this.summaries = this.code.catalogueModel(this.catalogue, id, { ...routing, reason: "compaction" });
  }

  selected(): string {
    return this.selection;
  }

  /** Told before each turn: the model in force on the branch (a route's `previous`). */
  setInForce(id: string | undefined): void {
    this.inForce = id;
  }

  /** The physical model a fresh branch starts on: the selection, or what its route picks for a first prompt. */
  startsOn(): PhysicalModel {
    const physical = this.catalogue.physical.get(this.selection);
    if (physical !== undefined) return physical;
    const [first] = this.code.resolveRoute(this.catalogue, this.selection, {
      reason: "prompt",
      previous: undefined,
      messages: [],
    });
    return first as PhysicalModel;
  }

  /** Who answered a turn's replies: what they say, or the physical selection (it answers unmarked). */
  answered(turn: Parameters<typeof newestChoice>[0]): string | undefined {
    const marked = newestChoice(turn);
    if (marked !== undefined || !this.catalogue.physical.has(this.selection)) return marked;
    return turn.some(isReply) ? this.selection : undefined;
  }

  /** Pi's fields for a reply that does not name its author: the physical model the selection starts on. */
  identity(): ModelIdentity {
    const model = this.startsOn();
    return { api: model.api, provider: model.provider, model: model.modelId };
  }

  /** The catalogue's prices of `provider/model`, when it knows them. */
  prices(provider: string, model: string): ModelPrices | undefined {
    return this.catalogue.physical.get(physicalId(provider, model))?.cost;
  }

  /** The start line's words for the selection: a physical id, or a virtual model and its route. */
  describe(): string {
    const virtual = this.catalogue.virtual.get(this.selection);
    return virtual === undefined ? this.selection : `虚拟模型 ${virtual.id}：${virtual.describe}`;
  }
}
