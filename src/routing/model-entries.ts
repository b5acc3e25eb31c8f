/**
 * One model as each base describes it — protocol A an OpenAI `Model`, protocol B an Anthropic
 * `ModelInfo` — shared by the list and by GET …/models/{id}, so both say the same of a model.
 */
import type { ModelInfo } from '@anthropic-ai/sdk/resources/models';
import type { Model } from 'openai/resources/models';
import { modelPage } from './model-paging.js';

export interface ListedModel {
  id: string;
  owner: string;
  /** Unix seconds. */
  created: number;
  displayName: string;
  /** Input tokens, only where a provider's list states them (never a guess). */
  contextWindow?: number;
  /** The most a request's max_tokens may ask for, only where a provider's list states it. */
  maxOutput?: number;
}

/** What svc-proxy states of a ModelInfo: the rest (capabilities, lifecycle …) it does not know. */
export type ModelInfoEntry = Pick<ModelInfo, 'type' | 'id' | 'display_name' | 'created_at'> & Partial<Pick<ModelInfo, 'max_input_tokens' | 'max_tokens'>>;

function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** OpenAI's Model has no field for a window or an output limit, and protocol A adds none of its own. */
export function openaiModel(m: ListedModel): Model {
  return { id: m.id, object: 'model', created: m.created, owned_by: m.owner };
}

export function anthropicModel(m: ListedModel): ModelInfoEntry {
  const entry: ModelInfoEntry = { type: 'model', id: m.id, display_name: m.displayName, created_at: iso(m.created) };
  if (m.contextWindow !== undefined) entry.max_input_tokens = m.contextWindow;
  // ModelInfo.max_tokens: "Maximum value for the `max_tokens` parameter when using this model"
  if (m.maxOutput !== undefined) entry.max_tokens = m.maxOutput;
  return entry;
}

export function modelJson(protocol: 'a' | 'b', m: ListedModel): string {
  return JSON.stringify(protocol === 'a' ? openaiModel(m) : anthropicModel(m));
}

/** Protocol A `{"object":"list","data":[…]}` (OpenAI's list has no paging: the query is not read), protocol B the page the query asks for. */
export function modelListJson(protocol: 'a' | 'b', models: readonly ListedModel[], query: URLSearchParams): string {
  if (protocol === 'a') return JSON.stringify({ object: 'list', data: models.map(openaiModel) });
  const page = modelPage(models, query);
  return JSON.stringify({ ...page, data: page.data.map(anthropicModel) });
}
