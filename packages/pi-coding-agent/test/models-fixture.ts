// Test helpers for chapter 18: a catalogue of physical models each answered by its own scripted
// model, and the log of what each route was asked.
import { type AssistantMessage, type Model, type ModelRequest, ScriptedModel } from "@pi/core";
import {
  createModelCatalogue,
  type ModelCatalogue,
  type PhysicalModel,
  physicalId,
  type Route,
  type RouteRequest,
} from "../src/models/index.js";

export function physical(provider: string, modelId: string, cost?: PhysicalModel["cost"]): PhysicalModel {
  return {
    id: physicalId(provider, modelId),
    provider,
    modelId,
    api: "openai-completions",
    baseUrl: `http://127.0.0.1:9/${provider}`,
    contextWindow: 32_000,
    ...(cost !== undefined ? { cost } : {}),
  };
}

export const BIG = physical("local", "big");
export const SMALL = physical("local", "small");
export const BACKUP = physical("backup", "big");

export interface Fleet {
  catalogue: ModelCatalogue;
  /** Each physical id's scripted model. */
  models: Map<string, ScriptedModel>;
  connect: (model: PhysicalModel) => Model;
  /** What the route was asked, request by request (reason and previous only). */
  asked: Pick<RouteRequest, "reason" | "previous">[];
}

/** A catalogue of BIG, SMALL and BACKUP, plus virtual model "auto" whose route is `route` (logged). */
export function fleet(route: Route, scripts: Record<string, AssistantMessage[]>): Fleet {
  const asked: Fleet["asked"] = [];
  const models = new Map<string, ScriptedModel>();
  for (const model of [BIG, SMALL, BACKUP]) models.set(model.id, new ScriptedModel(scripts[model.id] ?? []));
  const catalogue = createModelCatalogue(
    ["local", "backup"],
    [BIG, SMALL, BACKUP],
    [
      {
        id: "auto",
        describe: "test route",
        route: (request) => {
          asked.push({ reason: request.reason, previous: request.previous });
          return route(request);
        },
      },
    ],
  );
  return { catalogue, models, connect: (model) => models.get(model.id) as ScriptedModel, asked };
}

/** The messages of each request `model` received. */
export function requestsOf(model: ScriptedModel): ModelRequest["messages"][] {
  return model.requests.map((request) => request.messages);
}
