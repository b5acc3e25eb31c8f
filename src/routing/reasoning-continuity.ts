/**
 * Reasoning continuity across turns for clients that drop reasoning proof (see
 * reasoning-cache.ts): remember it from answers, put it back on replayed tool-call turns, and —
 * when it is still missing for an Anthropic target with thinking on — turn thinking off for that
 * request instead of earning a 400 (LiteLLM's strategy).
 */
import type { FunctionCallItem, HubEvent, HubRequest, Item, OutputItem, ReasoningItem, ReasoningOrigin, SystemPart } from '../protocols/hub.js';
import { lastElement, mayContain } from '../protocols/lazy-json.js';
import { copyMembers } from '../protocols/own-members.js';
import { answerCallIds, CallIdReuse } from '../protocols/call-id-reuse.js';
import { recordOrigin, type ProofIssuers } from './proof-issuers.js';
import type { CachedTurn, ReasoningMemory } from './reasoning-cache.js';
import { outputConfig } from '../providers/messages-body.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

/**
 * Proof is kept under the id the call has in the hub when the client sends it back: a call that
 * takes an id its conversation has (`taken`; a model that numbers calls per turn) is renamed then,
 * by the decoder for a Chat client and already in the answer for the others (call-id-reuse.ts), so
 * each turn finds its own proof, not the latest turn's under the shared id.
 */
function remember(cache: ReasoningMemory, slug: string, reasoning: ReasoningItem[], calls: Array<{ callId: string; thoughtSignature?: string }>, taken?: (id: string) => boolean): void {
  // nothing to keep: the conversation's ids are not gathered (a set over all its calls)
  if (reasoning.length === 0 && !calls.some((call) => call.thoughtSignature)) return;
  const hubId = answerCallIds(taken);
  for (const call of calls) {
    // every call is named, proof or not: the fresh ids count the calls before
    const callId = hubId(call.callId);
    if (reasoning.length === 0 && !call.thoughtSignature) continue;
    const turn: CachedTurn = { slug };
    if (reasoning.length > 0) turn.reasoning = reasoning;
    if (call.thoughtSignature) turn.thoughtSignature = call.thoughtSignature;
    cache.set(callId, turn);
  }
}

/**
 * Remember the proof in a converted, non-streamed answer. `withReasoning`: the client cannot carry
 * reasoning itself; `taken`: whether a call id is one of the request's conversation.
 */
export function rememberOutput(cache: ReasoningMemory, slug: string, output: OutputItem[], withReasoning: boolean, taken?: (id: string) => boolean): void {
  const reasoning: ReasoningItem[] = [];
  const calls: FunctionCallItem[] = [];
  for (const item of output) {
    if (item.type === 'reasoning') {
      if (withReasoning && item.origin.kind !== 'unsigned') reasoning.push(item);
    } else if (item.type === 'function_call') {
      calls.push(item);
    }
  }
  remember(cache, slug, reasoning, calls, taken);
}

/** Collects the same from a converted stream, event by event; stored only when the answer finishes. */
export class StreamReasoningCollector {
  private readonly cache: ReasoningMemory;
  private readonly slug: string;
  private readonly withReasoning: boolean;
  private readonly issuers: ProofIssuers | undefined;
  private readonly open = new Map<number, { text: string; origin?: ReasoningOrigin }>();
  private readonly reasoning: ReasoningItem[] = [];
  private readonly calls: Array<{ callId: string; thoughtSignature?: string }> = [];
  private readonly taken: ((id: string) => boolean) | undefined;

  /**
   * `issuers`: where the upstream's thinking signatures are remembered (custom Messages endpoints);
   * `taken`: whether a call id is one of the request's conversation (rememberOutput).
   */
  constructor(cache: ReasoningMemory, slug: string, withReasoning: boolean, issuers?: ProofIssuers, taken?: (id: string) => boolean) {
    this.cache = cache;
    this.slug = slug;
    this.withReasoning = withReasoning;
    this.issuers = issuers;
    this.taken = taken;
  }

  onEvent(ev: HubEvent): void {
    switch (ev.type) {
      case 'block_start':
        if (ev.block.type === 'reasoning') {
          if (this.withReasoning) this.open.set(ev.index, ev.block.origin ? { text: '', origin: ev.block.origin } : { text: '' });
        } else if (ev.block.type === 'function_call') {
          this.calls.push(ev.block.thoughtSignature ? { callId: ev.block.callId, thoughtSignature: ev.block.thoughtSignature } : { callId: ev.block.callId });
        }
        break;
      case 'reasoning_delta': {
        const r = this.open.get(ev.index);
        if (r) r.text += ev.text;
        break;
      }
      case 'reasoning_origin': {
        if (this.issuers) recordOrigin(this.issuers, this.slug, ev.origin);
        const r = this.open.get(ev.index);
        if (r) r.origin = ev.origin;
        break;
      }
      case 'block_stop': {
        const r = this.open.get(ev.index);
        if (r) {
          this.open.delete(ev.index);
          if (r.origin && r.origin.kind !== 'unsigned') this.reasoning.push({ type: 'reasoning', text: r.text, origin: r.origin });
        }
        break;
      }
      case 'finish':
        remember(this.cache, this.slug, this.reasoning, this.calls, this.taken);
        break;
      default:
        break;
    }
  }
}

/**
 * The call with its cached signature, keys in the call's order (the signature last). Copied key by
 * key, not `{ ...call, thoughtSignature }`: on Node 20 a spread copy that gains a key gets a hidden
 * class of its own, and this runs for each replayed call of every request to Gemini from a client
 * that drops signatures (Claude Code's).
 */
function withThoughtSignature(call: FunctionCallItem, thoughtSignature: string): FunctionCallItem {
  const signed = copyMembers(call);
  signed.thoughtSignature = thoughtSignature;
  return signed;
}

function isAssistantItem(item: Item): boolean {
  return item.type === 'reasoning' || item.type === 'function_call' || (item.type === 'message' && item.role === 'assistant');
}

/**
 * Cached proof put back into a decoded request's items: thought signatures on calls that lack
 * them, and reasoning at the start of an assistant tool-call turn that has none with its proof.
 * A turn whose reasoning came back as bare text (`reasoning_content`, which the AI SDK's
 * OpenAI-compatible provider — opencode's — sends back) gets the cached reasoning instead: the
 * same reasoning with its signature, without which Claude's thinking was turned off for the
 * request. Copy-on-write: returns `items` itself when nothing applies, else a new array (changed
 * items copied), so one decoded request can be encoded for several targets.
 */
export function attachToHub(cache: ReasoningMemory, items: Item[], slug: string, withReasoning: boolean): Item[] {
  return attach(cache, items, slug, withReasoning).items;
}

/**
 * `attachToHub` for a whole request: a system message kept in place (SystemPart.inline) names
 * the item it stood before by index, and cached reasoning swapped into a turn changes how many
 * items come before it; its place follows the item it stood before.
 */
export function attachToRequest(cache: ReasoningMemory, req: HubRequest, slug: string, withReasoning: boolean): { items: Item[]; system: SystemPart[] } {
  const { items, at } = attach(cache, req.items, slug, withReasoning);
  if (!at || !req.system.some((p) => p.inline)) return { items, system: req.system };
  const system = req.system.map((p) => (p.inline ? { ...p, inline: { ...p.inline, beforeItem: at[p.inline.beforeItem] ?? items.length } } : p));
  return { items, system };
}

/** The items with proof put back and, when any turn changed, each old index's new one (`at[items.length]` the end). */
function attach(cache: ReasoningMemory, items: Item[], slug: string, withReasoning: boolean): { items: Item[]; at?: number[] } {
  if (cache.size === 0) return { items };
  let out: Item[] | undefined;
  let at: number[] | undefined;
  let i = 0;
  while (i < items.length) {
    if (!isAssistantItem(items[i]!)) {
      at?.push(out!.length);
      out?.push(items[i]!);
      i++;
      continue;
    }
    const runStart = i;
    let run: Item[] = [];
    let proven = false;
    let firstCall: FunctionCallItem | undefined;
    let changed = false;
    let swapped = 0; // cached reasoning items put in place of the turn's own
    while (i < items.length && isAssistantItem(items[i]!)) {
      let item = items[i]!;
      if (item.type === 'reasoning') proven ||= item.origin.kind !== 'unsigned';
      else if (item.type === 'function_call') {
        firstCall ??= item;
        if (!item.thoughtSignature) {
          const turn = cache.get(item.callId);
          if (turn?.slug === slug && turn.thoughtSignature) {
            item = withThoughtSignature(item, turn.thoughtSignature);
            changed = true;
          }
        }
      }
      run.push(item);
      i++;
    }
    if (withReasoning && !proven && firstCall) {
      const turn = cache.get(firstCall.callId);
      if (turn?.slug === slug && turn.reasoning?.length) {
        // the turn's bare reasoning text is the cached reasoning's own: the cached copy replaces it
        run = [...turn.reasoning, ...run.filter((item) => item.type !== 'reasoning')];
        swapped = turn.reasoning.length;
        changed = true;
      }
    }
    if (changed && !out) {
      out = items.slice(0, runStart);
      at = out.map((_, k) => k);
    }
    if (out) {
      at!.push(...runPlaces(items, runStart, i, out.length, swapped));
      out.push(...run);
    }
  }
  if (!out) return { items };
  at!.push(out.length);
  return { items: out, at };
}

/**
 * New indices of the turn items[from, to) placed at `start`: as they were, or, with `swapped`
 * cached reasoning items in place of the turn's own, its first where the turn starts and the
 * others after the cached reasoning, in order, without the turn's own reasoning.
 */
function runPlaces(items: Item[], from: number, to: number, start: number, swapped: number): number[] {
  if (swapped === 0) return Array.from({ length: to - from }, (_, k) => start + k);
  const places = [start];
  let kept = 0;
  for (let k = from + 1; k < to; k++) {
    if (items[k - 1]!.type !== 'reasoning') kept++;
    places.push(start + swapped + kept);
  }
  return places;
}

/**
 * Remember the proof in a passthrough Chat answer (OpenRouter `reasoning_details`, Gemini
 * signatures), under the id each call has in the hub next turn (`taken`: chat-call-ids.ts), as
 * remember() does for a converted one.
 */
export function rememberChatAnswer(cache: ReasoningMemory, slug: string, body: Obj, taken?: (id: string) => boolean): void {
  const choices = body.choices;
  if (!Array.isArray(choices)) return;
  const message = isObject(choices[0]) ? choices[0].message : undefined;
  if (!isObject(message) || !Array.isArray(message.tool_calls)) return;
  const details = Array.isArray(message.reasoning_details) && message.reasoning_details.length > 0 ? message.reasoning_details : undefined;
  const calls = message.tool_calls.filter((tc): tc is Obj => isObject(tc) && typeof tc.id === 'string');
  // nothing to keep: the conversation's ids are not gathered
  if (!details && !calls.some((tc) => chatThoughtSignature(tc))) return;
  const hubId = answerCallIds(taken);
  for (const tc of calls) {
    // every call is named, proof or not: the fresh ids count the calls before
    const callId = hubId(tc.id as string);
    const sig = chatThoughtSignature(tc);
    if (!details && !sig) continue;
    const turn: CachedTurn = { slug };
    if (details) turn.reasoningDetails = details;
    if (sig) turn.thoughtSignature = sig;
    cache.set(callId, turn);
  }
}

/**
 * Put cached proof back into a passthrough Chat request body, in place. Each call is looked up by
 * its hub id (a repeated id renamed as the decoder would), under which its answer's proof was kept.
 * Returns whether an id is the hub id of one of the conversation's calls, when it read them: the
 * answer's proof is kept by them (chat-call-ids.ts) without the conversation parsed again.
 */
export function attachToChatBody(cache: ReasoningMemory, body: Obj, slug: string): ((id: string) => boolean) | undefined {
  // only assistant turns with tool calls get anything: a conversation without them stays unparsed
  if (cache.size === 0 || !mayContain(body, 'messages', 'tool_calls') || !Array.isArray(body.messages)) return undefined;
  const names = new CallIdReuse();
  for (const m of body.messages) {
    if (!isObject(m) || m.role !== 'assistant' || !Array.isArray(m.tool_calls)) continue;
    let first: CachedTurn | undefined;
    for (const tc of m.tool_calls) {
      if (!isObject(tc) || typeof tc.id !== 'string') continue;
      const turn = cache.get(names.idFor(tc.id));
      if (!turn || turn.slug !== slug) continue;
      first ??= turn;
      if (turn.thoughtSignature && !chatThoughtSignature(tc)) {
        const extra = isObject(tc.extra_content) ? tc.extra_content : {};
        const google = isObject(extra.google) ? extra.google : {};
        tc.extra_content = { ...extra, google: { ...google, thought_signature: turn.thoughtSignature } };
      }
    }
    if (first?.reasoningDetails && (m.reasoning_details === undefined || m.reasoning_details === null)) {
      m.reasoning_details = first.reasoningDetails;
    }
  }
  return (id) => names.gave(id);
}

function chatThoughtSignature(tc: Obj): string | undefined {
  const extra = tc.extra_content;
  const google = isObject(extra) ? extra.google : undefined;
  const sig = isObject(google) ? google.thought_signature : undefined;
  return typeof sig === 'string' && sig !== '' ? sig : undefined;
}

/**
 * Anthropic rejects a request with thinking on whose latest assistant tool-use turn does not
 * start with its thinking block. When the proof is gone (client dropped it, nothing cached),
 * turn thinking off for this request and remove leftover thinking blocks, which a request with
 * thinking off may not carry either. Returns true when it did so. Only the latest assistant turn
 * is read until then (a scan, when the conversation is still unparsed).
 */
export function dropUnprovenThinking(body: Obj): boolean {
  const thinking = body.thinking;
  if (!isObject(thinking) || (thinking.type !== 'enabled' && thinking.type !== 'adaptive')) return false;
  const last = lastElement(body, 'messages', 'assistant', (m) => isObject(m) && m.role === 'assistant');
  if (!isObject(last) || !Array.isArray(last.content)) return false;
  const blocks = last.content as unknown[];
  if (!blocks.some((b) => isObject(b) && b.type === 'tool_use')) return false;
  const first = blocks[0];
  if (isObject(first) && (first.type === 'thinking' || first.type === 'redacted_thinking')) return false;

  delete body.thinking;
  const messages = body.messages as unknown[];
  for (const m of messages) {
    if (!isObject(m) || m.role !== 'assistant' || !Array.isArray(m.content)) continue;
    const kept = (m.content as unknown[]).filter((b) => !(isObject(b) && (b.type === 'thinking' || b.type === 'redacted_thinking')));
    if (kept.length > 0) m.content = kept;
  }
  return true;
}

/**
 * The same for a passthrough Messages body whose thinking blocks are all the client's own, where
 * only manual thinking (`enabled`) is sure to have opened each of Claude's turns with one: a
 * tool-use turn without it came from a model that did not think (a switch from Gemini, say). With
 * adaptive thinking Claude may skip it, and such a turn goes back as it came.
 */
export function dropUnprovenManualThinking(body: Obj): boolean {
  return isObject(body.thinking) && body.thinking.type === 'enabled' && dropUnprovenThinking(body);
}

/**
 * What the request log says went of the effort once thinking was turned off above: Claude's
 * `output_config.effort` (a setting of its own, which works without thinking) when the body still
 * has one, else nothing — not the thinking budget that no longer went.
 */
export function effortLeftWithoutThinking(body: Obj): { effortSent?: string } {
  const effort = outputConfig(body)?.effort;
  return typeof effort === 'string' ? { effortSent: effort } : {};
}
