/**
 * Freeform (Responses `custom`) tools for targets that only know JSON function tools: Codex's
 * `apply_patch` takes a patch as plain text held to a Lark grammar, which no other provider can
 * declare. Each becomes a function taking one string, `{"input": "…"}`, whose description tells
 * the model the format (the grammar verbatim); history calls get their text wrapped the same way,
 * and calls in the answer are unwrapped back into freeform calls, non-streamed and streamed.
 *
 * Runs after tool-names.ts made the names safe, so the names remembered here are the ones the
 * target sees and answers with (and must be checked before those are restored).
 */
import type { FreeformFormat, HubEvent, HubRequest, HubResponse, JsonSchema } from '../protocols/hub.js';
import { FreeformInput, freeformInputOf } from './freeform-input.js';

/** Target-facing names of the tools that were freeform in one request. */
export type FreeformNames = ReadonlySet<string>;

/**
 * Turn every freeform tool of the request into a function tool taking `input`, and every freeform
 * call in its history into a call with those arguments, in place. Returns the tools' names, or
 * undefined when there were none.
 */
export function foldFreeformTools(req: HubRequest): FreeformNames | undefined {
  let names: Set<string> | undefined;
  for (const tool of req.tools) {
    if (tool.type !== 'function' || tool.freeform === undefined) continue;
    tool.parameters = inputSchema(tool.freeform);
    delete tool.freeform;
    (names ??= new Set()).add(tool.name);
  }
  for (const item of req.items) {
    if (item.type !== 'function_call' || item.freeform !== true) continue;
    item.arguments = JSON.stringify({ input: item.arguments });
    delete item.freeform;
  }
  return names;
}

function inputSchema(format: FreeformFormat): JsonSchema {
  return {
    type: 'object',
    properties: { input: { type: 'string', description: inputDescription(format) } },
    required: ['input'],
    additionalProperties: false,
  };
}

function inputDescription(format: FreeformFormat): string {
  const whole = "The tool's whole input, written as free text (not JSON): everything the tool should receive goes in this one string.";
  if (format.type === 'text') return whole;
  const grammar = format.syntax === 'lark' ? 'Lark grammar' : 'regular expression';
  return `${whole} The text must match this ${grammar} exactly:\n${format.definition}`;
}

/** Calls of freeform tools in a non-streamed answer become freeform calls with their input text, in place. */
export function unfoldFreeformCalls(res: HubResponse, names: FreeformNames): void {
  for (const item of res.output) {
    if (item.type !== 'function_call' || !names.has(item.name)) continue;
    item.freeform = true;
    item.arguments = freeformInputOf(item.arguments);
  }
}

/**
 * The same for a stream: a call block of a freeform tool is marked freeform at its start, and its
 * arguments deltas become deltas of its input text as the text is decoded. What the reader still
 * holds goes out before the block's end, or before the end of the answer for blocks left open.
 */
export class FreeformStream {
  private readonly names: FreeformNames;
  /** Readers of the freeform call blocks still open, by block index. */
  private readonly open = new Map<number, FreeformInput>();

  constructor(names: FreeformNames) {
    this.names = names;
  }

  /** The events that stand for one event from the target (edited in place; a delta that decodes to nothing goes). */
  map(ev: HubEvent): HubEvent[] {
    switch (ev.type) {
      case 'block_start':
        if (ev.block.type === 'function_call' && this.names.has(ev.block.name)) {
          ev.block.freeform = true;
          this.open.set(ev.index, new FreeformInput());
        }
        return [ev];
      case 'arguments_delta': {
        const reader = this.open.get(ev.index);
        if (reader === undefined) return [ev];
        ev.json = reader.push(ev.json);
        return ev.json === '' ? [] : [ev];
      }
      case 'block_stop': {
        const reader = this.open.get(ev.index);
        if (reader === undefined) return [ev];
        this.open.delete(ev.index);
        return [...rest(ev.index, reader), ev];
      }
      case 'finish':
      case 'error': {
        const out: HubEvent[] = [];
        for (const [index, reader] of this.open) out.push(...rest(index, reader));
        this.open.clear();
        out.push(ev);
        return out;
      }
      default:
        return [ev];
    }
  }
}

/** The last delta of a freeform block: what its reader held back or kept whole (none if nothing). */
function rest(index: number, reader: FreeformInput): HubEvent[] {
  const json = reader.end();
  return json === '' ? [] : [{ type: 'arguments_delta', index, json }];
}
