/**
 * The live model catalog behind GET /models: every connected provider, custom endpoint and local
 * server (configured or detected), ids prefixed with the provider slug. Each provider's list is
 * cached (stale-while-revalidate: an expired list is served while a refresh runs), each fetch is
 * bounded by a timeout, and one failing or slow provider never hides the others.
 */
import { createHash } from 'node:crypto';
import { BUILTIN_PROVIDERS, type Config } from '../config/schema.js';
import type { Effort } from '../protocols/hub.js';
import type { ThinkingMode } from './anthropic-models.js';
import { anthropicCapabilities } from './anthropic-capabilities.js';
import { StatedControls } from './stated-controls.js';
import { defaultLocalDetector, type LocalDetector } from './local-detect.js';
import { detectedUnconfigured, isResolveFailure, resolveProvider } from './registry.js';
import type { ResolvedProvider } from './types.js';
import { isLlamaCppEntry, propsUrl, slotContext } from './llamacpp-context.js';
import { lmStudioLoaded, modelfileContext, ollamaLoaded, serverRoot } from './loaded-context.js';
import { keepLastGeminiFacts, lastNotGenerating, rememberNotGenerating } from './gemini-facts-kept.js';
import { tokenCount } from './token-count.js';
import { geminiListHeaders, geminiModelsUrl, geminiNativeFacts, geminiNextPage, listStatesThinking, type GeminiNativeFacts } from './gemini-native-list.js';
import { documentedWindow } from './context-window-sources.js';
import { ListNotAnObject, listRefusal, ListTimedOut, listFailureOf } from './model-list-errors.js';
import type { ProviderListFailure } from './model-list-failure.js';
import { upstreamText } from './upstream-text.js';
import { holdsSecret, searchedForms } from '../util/key-shapes.js';
import { onAbort } from '../util/on-abort.js';

export interface CatalogModel {
  /** "provider/model" */
  id: string;
  provider: string;
  /** Unix seconds. */
  created?: number;
  displayName?: string;
  /** Input tokens the model takes, where the provider's list says (see contextWindowOf). */
  contextWindow?: number;
  /** The most output tokens a request may ask for, where the provider's list says (Anthropic's `max_tokens`, "Maximum value for the `max_tokens` parameter when using this model", ModelInfo; Gemini's native `outputTokenLimit`). */
  maxOutput?: number;
  /** What the model reads besides text, where the list says (see inputsOf; Anthropic's: anthropic-capabilities.ts). */
  inputs?: ModelInput[];
  /** Whether the model reasons, where the list says (see supportsParameter; Anthropic's: anthropic-capabilities.ts; Gemini's: gemini-native-list.ts). */
  reasons?: boolean;
  /** Whether the model calls tools, where the list says (see supportsParameter). */
  callsTools?: boolean;
  /** The effort levels the model takes, where the list says (Anthropic's: anthropic-capabilities.ts; Gemini's: none for a model it states does not think); empty: none. */
  efforts?: Effort[];
  /** How the model takes thinking, where the list says (Anthropic's `capabilities.thinking.types`: anthropic-capabilities.ts). */
  thinking?: ThinkingMode;
  /** Thinking off is refused, where the list says (Anthropic's `capabilities.thinking.types.disabled`). */
  refusesDisabled?: boolean;
  /** `thinking: {type: "between_tools"}` is refused, where the list says (`capabilities.thinking.types.between_tools`). */
  refusesBetweenTools?: boolean;
}

/** Input besides text a model list can state: images, and PDF files. */
export type ModelInput = 'image' | 'pdf';

export interface CatalogDeps {
  config(): Config;
  credential(slug: string): string | undefined;
  detector?: LocalDetector;
  /** Fresh lifetime of a provider's list. */
  ttlMs?: number;
  /** Fresh lifetime of a failed fetch (the provider is retried in the background after it). */
  failureTtlMs?: number;
  /** Bound on one provider's fetch (all pages). */
  timeoutMs?: number;
  /** Where the reasoning controls lists state are kept for requests (the daemon's one store); one of its own when absent. */
  stated?: StatedControls;
}

/** The models of the providers asked, and why each of them whose latest fetch failed has none (or only an older list). */
export interface CatalogListing {
  models: CatalogModel[];
  failed: ProviderListFailure[];
}

export interface ModelCatalog {
  /** Every provider's models, or only those of the providers named in `only` (the others are not asked). */
  list(signal?: AbortSignal, only?: ReadonlySet<string>): Promise<CatalogModel[]>;
  /** As `list`, with the failures of the providers asked. */
  listing(signal?: AbortSignal, only?: ReadonlySet<string>): Promise<CatalogListing>;
}

interface Entry {
  models: CatalogModel[];
  at: number;
  failed: boolean;
  /** Why it failed (absent on the placeholder of a first fetch still running). */
  failure?: ProviderListFailure;
  refreshing?: Promise<Entry>;
}

/** Ids that are not text-generation models on the built-in providers' lists. */
const NOT_CHAT = /(embed|tts|whisper|dall-e|moderation|transcribe|imagen|veo-|aqa|^babbage|^davinci|^sora|gpt-image|chatgpt-image|-realtime|^text-)/i;

const ANTHROPIC_PAGE_LIMIT = 1000;
const MAX_PAGES = 10;

export function createModelCatalog(deps: CatalogDeps): ModelCatalog {
  const detector = deps.detector ?? defaultLocalDetector;
  const ttlMs = deps.ttlMs ?? 60_000;
  const failureTtlMs = deps.failureTtlMs ?? 10_000;
  const timeoutMs = deps.timeoutMs ?? 3_000;
  const cache = new Map<string, Entry>();
  const stated = deps.stated ?? new StatedControls();

  function fetchInto(key: string, target: ResolvedProvider, previous: Entry | undefined): Promise<Entry> {
    const started = performance.now();
    const run = fetchModels(target, timeoutMs, previous?.models)
      .then((models): Entry => {
        // keep() reads the controls' own fields of each entry and leaves the rest
        stated.keep(target.slug, models.map((m) => ({ ...m, model: upstreamIdOf(m) })));
        return { models, at: Date.now(), failed: false };
      })
      // A failed refresh keeps the last good list (stale beats empty).
      .catch((err: unknown): Entry => {
        const failure = listFailureOf(err, target, Math.round(performance.now() - started));
        return { models: previous?.models ?? [], at: Date.now(), failed: true, failure };
      })
      .then((entry) => {
        cache.set(key, entry);
        return entry;
      });
    if (previous) previous.refreshing = run;
    return run;
  }

  /** The entry to answer with now: the cached one (refreshed behind when expired), or the first fetch's. */
  async function forTarget(target: ResolvedProvider): Promise<Entry> {
    const key = cacheKey(target);
    const entry = cache.get(key);
    if (!entry) {
      const placeholder: Entry = { models: [], at: 0, failed: true };
      cache.set(key, placeholder);
      placeholder.refreshing = fetchInto(key, target, undefined);
      return placeholder.refreshing;
    }
    if (entry.at === 0 && entry.refreshing) return entry.refreshing; // first fetch in flight
    const age = Date.now() - entry.at;
    if (age > (entry.failed ? failureTtlMs : ttlMs) && !entry.refreshing) void fetchInto(key, target, entry);
    return entry;
  }

  const catalog: ModelCatalog = {
    async list(signal, only) {
      return (await catalog.listing(signal, only)).models;
    },
    async listing(signal, only) {
      const config = deps.config();
      // The first list waits for the (≤300 ms) probe, and so does one after a stale "nothing
      // answered" (a server started since is listed at once); others use the last result and refresh it behind.
      const snap = detector.snapshot();
      if (detector.enabled && (!snap || (snap.stale && snap.found.length === 0))) await detector.detect().catch(() => undefined);
      else detector.touch();
      const slugs = [
        ...BUILTIN_PROVIDERS,
        ...Object.keys(config.endpoints),
        ...Object.keys(config.locals),
        ...detectedUnconfigured(config, detector).map((c) => c.slug),
      ];
      const targets: ResolvedProvider[] = [];
      for (const slug of slugs) {
        if (only && !only.has(slug)) continue;
        const r = resolveProvider(slug, { config: () => config, credential: deps.credential, detector });
        if (!isResolveFailure(r)) targets.push(r);
      }
      // a partial list says nothing about the providers it did not ask
      if (!only) {
        const live = new Set(targets.map(cacheKey));
        for (const key of cache.keys()) if (!live.has(key)) cache.delete(key);
        stated.keepOnly(new Set(targets.map((t) => t.slug)));
      }

      const work = Promise.all(targets.map((t) => forTarget(t)));
      const entries = signal ? await abortable(work, signal) : await work;
      const failed: ProviderListFailure[] = [];
      for (const e of entries) if (e.failed && e.failure) failed.push(e.failure);
      return { models: entries.flatMap((e) => e.models), failed };
    },
  };
  return catalog;
}

function cacheKey(t: ResolvedProvider): string {
  const cred = t.credential ? createHash('sha256').update(t.credential).digest('base64url').slice(0, 16) : '';
  return `${t.slug}|${t.adapter.kind}|${t.baseUrl}|${cred}`;
}

function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const stopListening = onAbort(signal, () => reject(signal.reason));
    work.then(
      (v) => {
        stopListening();
        resolve(v);
      },
      (e: unknown) => {
        stopListening();
        reject(e);
      },
    );
  });
}

/**
 * One provider's models, all pages, within `timeoutMs`. Throws on any failure. `lastGood`, its
 * previous list, stands in for what a list read beside it (Gemini's native one) could not say this time.
 */
export async function fetchModels(target: ResolvedProvider, timeoutMs: number, lastGood: readonly CatalogModel[] = []): Promise<CatalogModel[]> {
  const signal = AbortSignal.timeout(timeoutMs);
  try {
    return await fetchPages(target, timeoutMs, signal, lastGood);
  } catch (err) {
    // the abort surfaces as a generic request failure; say what it was
    throw signal.aborted ? new ListTimedOut(timeoutMs) : err;
  }
}

async function fetchPages(target: ResolvedProvider, timeoutMs: number, signal: AbortSignal, lastGood: readonly CatalogModel[]): Promise<CatalogModel[]> {
  const { adapter } = target;
  const headers = adapter.headers(target.credential, {}, adapter.dialect === 'messages' ? 'chat' : adapter.dialect);
  delete headers['content-type'];
  headers.accept = 'application/json';
  const base = adapter.url(target.baseUrl, 'models');
  const builtin = (BUILTIN_PROVIDERS as readonly string[]).includes(target.slug);
  const seen = new Set<string>();
  const out: CatalogModel[] = [];
  const forms = searchedForms(target.credential);
  /** The model listed, or undefined when the entry is skipped (no id, a repeat, not a chat model). */
  const add = (rawId: unknown, created: number | undefined, displayName: unknown, contextWindow: number | undefined): CatalogModel | undefined => {
    if (typeof rawId !== 'string' || rawId === '') return undefined;
    // an id or name holding a key (a gateway listing it by mistake) would hand it to every client
    if (holdsSecret(rawId, forms) || (typeof displayName === 'string' && holdsSecret(displayName, forms))) return undefined;
    const id = adapter.normaliseModelId(rawId);
    if (seen.has(id) || (builtin && target.slug !== 'openrouter' && NOT_CHAT.test(id))) return undefined;
    seen.add(id);
    const model: CatalogModel = { id: `${target.slug}/${id}`, provider: target.slug };
    if (created !== undefined && Number.isFinite(created)) model.created = created;
    if (typeof displayName === 'string' && displayName !== '') model.displayName = displayName;
    if (contextWindow !== undefined) model.contextWindow = contextWindow;
    out.push(model);
    return model;
  };

  if (adapter.dialect === 'messages') {
    let after: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const url = `${base}${base.includes('?') ? '&' : '?'}limit=${ANTHROPIC_PAGE_LIMIT}${after ? `&after_id=${encodeURIComponent(after)}` : ''}`;
      const body = await getJson(url, headers, signal, timeoutMs);
      const data = Array.isArray(body.data) ? body.data : [];
      for (const m of data) {
        if (typeof m !== 'object' || m === null) continue;
        const r = m as Record<string, unknown>;
        const created = typeof r.created_at === 'string' ? Math.floor(Date.parse(r.created_at) / 1000) : undefined;
        const model = add(r.id, created, r.display_name, contextWindowOf(r));
        if (!model) continue;
        Object.assign(model, anthropicCapabilities(r));
        const maxOutput = tokenCount(r.max_tokens);
        if (maxOutput !== undefined) model.maxOutput = maxOutput;
      }
      if (body.has_more !== true || typeof body.last_id !== 'string') break;
      after = body.last_id;
    }
    return out;
  }

  const body = await getJson(base, headers, signal, timeoutMs);
  const data = Array.isArray(body.data) ? body.data : Array.isArray(body.models) ? body.models : [];
  const llamaCpp: CatalogModel[] = [];
  for (const m of data) {
    if (typeof m === 'string') {
      add(m, undefined, undefined, undefined);
      continue;
    }
    if (typeof m !== 'object' || m === null) continue;
    const r = m as Record<string, unknown>;
    const model = add(r.id ?? r.name, typeof r.created === 'number' ? r.created : undefined, r.display_name ?? (r.id !== undefined ? r.name : undefined), contextWindowOf(r));
    if (!model) continue;
    const inputs = inputsOf(r);
    if (inputs) model.inputs = inputs;
    const reasons = supportsParameter(r, 'reasoning');
    if (reasons !== undefined) model.reasons = reasons;
    const callsTools = supportsParameter(r, 'tools');
    if (callsTools !== undefined) model.callsTools = callsTools;
    if (isLlamaCppEntry(r)) llamaCpp.push(model);
  }
  // the windows are extra: a server slow to answer for them must not hold the list up
  const windowMs = Math.min(timeoutMs, WINDOW_LOOKUP_MS);
  const windowSignal = AbortSignal.any([signal, AbortSignal.timeout(windowMs)]);
  if (llamaCpp.length > 0) await addSlotContext(llamaCpp, base, headers, windowSignal, windowMs);
  if (adapter.kind === 'local') await addLoadedContext(out, base, headers, windowSignal, windowMs);
  if (adapter.kind === 'gemini') return withGeminiFacts(out, target, windowSignal, windowMs, lastGood);
  // a list that states none (OpenAI's): the windows the provider's model pages document
  for (const m of out) {
    const window = documentedWindow(adapter.kind, upstreamIdOf(m));
    if (window !== undefined) m.contextWindow = window;
  }
  return out;
}

/** A listed model's id as its provider knows it (without the `slug/` prefix). */
function upstreamIdOf(m: CatalogModel): string {
  return m.id.slice(m.provider.length + 1);
}

/** What the context-window lookups beside a list may take, all of them together. */
const WINDOW_LOOKUP_MS = 1500;

/**
 * Gemini's models with what its native list states (gemini-native-list.ts): the window, the output
 * limit, whether the model thinks; a model it states cannot generate content (an embedding or AQA
 * model the id filter did not catch) is not offered. When it cannot be read (or only some of its
 * pages), a model it said nothing of keeps what the last good list stated, or stays left out where
 * that list left it out (gemini-facts-kept.ts).
 */
async function withGeminiFacts(models: CatalogModel[], target: ResolvedProvider, signal: AbortSignal, timeoutMs: number, lastGood: readonly CatalogModel[]): Promise<CatalogModel[]> {
  const native = new Map<string, GeminiNativeFacts>();
  const headers = geminiListHeaders(target.credential);
  let token: string | undefined;
  let readWhole = true;
  try {
    for (let page = 0; page < MAX_PAGES; page++) {
      const body = await getJson(geminiModelsUrl(target.baseUrl, token), headers, signal, timeoutMs);
      for (const [id, facts] of geminiNativeFacts(body)) native.set(id, facts);
      token = geminiNextPage(body);
      if (token === undefined) break;
    }
  } catch {
    // what the pages read so far state is kept
    readWhole = false;
  }
  const before = readWhole ? new Map<string, CatalogModel>() : new Map(lastGood.map((m) => [m.id, m]));
  const excludedBefore = readWhole ? new Set<string>() : lastNotGenerating(lastGood);
  const excluded = new Set<string>();
  const statesThinking = listStatesThinking(native);
  const out: CatalogModel[] = [];
  for (const m of models) {
    const facts = native.get(upstreamIdOf(m));
    if (facts?.generates === false || (!facts && excludedBefore.has(m.id))) {
      excluded.add(m.id);
      continue;
    }
    if (!facts) keepLastGeminiFacts(m, before);
    if (facts?.inputLimit !== undefined) m.contextWindow = facts.inputLimit;
    if (facts?.outputLimit !== undefined) m.maxOutput = facts.outputLimit;
    if (facts && (facts.thinks !== undefined || statesThinking)) m.reasons = facts.thinks ?? false;
    // one that does not think takes no effort at all (gemini.ts leaves it out)
    if (m.reasons === false) m.efforts = [];
    out.push(m);
  }
  rememberNotGenerating(out, excluded);
  return out;
}

/** At most this many Modelfiles read per list (one request each, side by side). */
const MAX_MODELFILES = 32;

/**
 * Ollama's or LM Studio's loaded context for the local models whose list stated none
 * (loaded-context.ts); the list stands as it is when neither API answers.
 */
async function addLoadedContext(models: CatalogModel[], modelsUrl: string, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<void> {
  const root = serverRoot(modelsUrl);
  const unknown = models.filter((m) => m.contextWindow === undefined);
  if (root === undefined || unknown.length === 0) return;
  const [ps, studio] = await Promise.all([
    getJson(`${root}/api/ps`, headers, signal, timeoutMs).catch(() => undefined),
    getJson(`${root}/api/v1/models`, headers, signal, timeoutMs).catch(() => undefined),
  ]);
  const ollama = ps && ollamaLoaded(ps);
  const loaded = ollama ?? (studio && lmStudioLoaded(studio));
  if (!loaded) return;
  for (const m of unknown) {
    const n = loaded.get(upstreamIdOf(m));
    if (n !== undefined) m.contextWindow = n;
  }
  if (!ollama) return;
  // a model Ollama has not loaded gets its Modelfile's num_ctx, when it sets one
  const rest = unknown.filter((m) => m.contextWindow === undefined).slice(0, MAX_MODELFILES);
  await Promise.all(
    rest.map(async (m) => {
      const show = await postJson(`${root}/api/show`, { model: upstreamIdOf(m) }, headers, signal, timeoutMs).catch(() => undefined);
      const n = show && modelfileContext(show);
      if (n) m.contextWindow = n;
    }),
  );
}

/** llama.cpp's served context, from `/props`; the list stands without it if that cannot be read. */
async function addSlotContext(models: CatalogModel[], modelsUrl: string, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<void> {
  const url = propsUrl(modelsUrl);
  if (!url) return;
  const context = await getJson(url, headers, signal, timeoutMs).then(slotContext, () => undefined);
  if (context !== undefined) for (const m of models) m.contextWindow = context;
}

/**
 * The context window a list entry states: Anthropic's `max_input_tokens`, OpenRouter's `context_length`
 * (and gateways that copy it), vLLM's `max_model_len` (what the server was started with). llama.cpp's
 * `meta.n_ctx_train` is the length the model was trained for, not what the server serves: its
 * window comes from `/props` (llamacpp-context.ts); Ollama's and LM Studio's from their own APIs
 * (loaded-context.ts); Gemini's from its native list (gemini-native-list.ts). OpenAI lists none: its
 * windows are the ones its model pages document (openai-windows.ts).
 */
function contextWindowOf(r: Record<string, unknown>): number | undefined {
  for (const v of [r.max_input_tokens, r.context_length, r.max_model_len]) {
    const n = tokenCount(v);
    if (n !== undefined) return n;
  }
  return undefined;
}

/**
 * What an entry states the model reads besides text: OpenRouter's `architecture.input_modalities`
 * (`image`, and `file`, which is PDFs; audio and video are not asked of coding tools). Anthropic's
 * states it in `capabilities` (anthropic-capabilities.ts); no other provider's list does.
 */
function inputsOf(r: Record<string, unknown>): ModelInput[] | undefined {
  const arch = r.architecture;
  const listed = typeof arch === 'object' && arch !== null ? (arch as Record<string, unknown>).input_modalities : undefined;
  if (!Array.isArray(listed) || !listed.every((m) => typeof m === 'string')) return undefined;
  const inputs: ModelInput[] = [];
  if (listed.includes('image')) inputs.push('image');
  if (listed.includes('file')) inputs.push('pdf');
  return inputs;
}

/** Whether an entry states the model takes a parameter: OpenRouter's `supported_parameters` (`reasoning`, `tools` …). */
function supportsParameter(r: Record<string, unknown>, name: string): boolean | undefined {
  const params = r.supported_parameters;
  return Array.isArray(params) ? params.includes(name) : undefined;
}

function getJson(url: string, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<Record<string, unknown>> {
  return requestJson(url, 'GET', undefined, headers, signal, timeoutMs);
}

function postJson(url: string, body: unknown, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<Record<string, unknown>> {
  return requestJson(url, 'POST', JSON.stringify(body), { ...headers, 'content-type': 'application/json' }, signal, timeoutMs);
}

async function requestJson(url: string, method: string, body: string | undefined, headers: Record<string, string>, signal: AbortSignal, timeoutMs: number): Promise<Record<string, unknown>> {
  const res = await upstreamText({ url, method, headers, body, signal, connectTimeoutMs: timeoutMs, headersTimeoutMs: timeoutMs, idleTimeoutMs: timeoutMs }, 32 * 1024 * 1024);
  const { text } = res;
  if (res.status < 200 || res.status >= 300) throw listRefusal(res.status, res.headers, text);
  const parsed: unknown = JSON.parse(text);
  if (Array.isArray(parsed)) return { data: parsed };
  if (typeof parsed !== 'object' || parsed === null) throw new ListNotAnObject();
  return parsed as Record<string, unknown>;
}
