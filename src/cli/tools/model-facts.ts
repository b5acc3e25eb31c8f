/**
 * What a tool's settings say of a model: its context window, what it reads besides text, whether
 * it reasons, and whether it calls tools. Claude Code takes a model name it does not know for one
 * with a 1,000,000-token window (2.1.332; 200,000 before) and compacts only near that, so a 32k
 * local model overflows first; Crush, Zed, Continue and opencode need a window in their config;
 * opencode, Crush, Zed and Continue keep images from a model not said to read them, opencode and
 * Crush offer reasoning only to a model said to reason, and Continue its agent mode only to one
 * said to call tools.
 *
 * The figures come from the running daemon's live catalog where the provider's list states them
 * (providers/models.ts), and, for a provider whose list states no window (OpenAI), from what its
 * model pages document (providers/openai-windows.ts), which needs no daemon, as its max output
 * does (opencode, Crush and Continue take one); for the built-in providers whose lists do not say what their models read
 * and do, from what the models coding tools use there have in common. On a group base a fallback
 * may land on any of the name's targets: the smallest window any states, and inputs, reasoning or
 * tools only when every target is known to have them (reasoning: false when one is known not to). Nothing is started for this: without a
 * daemon nothing is listed.
 */
import type { Config } from '../../config/schema.js';
import { documentedMaxOutput, documentedWindow, LISTS_WITHOUT_WINDOWS, outputBesideWindow } from '../../providers/context-window-sources.js';
import type { CatalogModel, ModelInput } from '../../providers/models.js';
import { openaiTextOnly } from '../../providers/openai-inputs.js';
import { openaiEffortLevels } from '../../providers/openai-models.js';
import { splitModelId } from '../../routing/targets.js';
import type { CliContext } from '../io.js';

export interface ModelFacts {
  contextWindow?: number;
  /** The most output tokens a request may ask for, where the provider's list (Anthropic's, Gemini's) or pages (OpenAI's: openai-windows.ts) state it. */
  maxOutput?: number;
  /** Whether maxOutput comes on top of contextWindow (the window is the input alone: context-window-sources.ts outputBesideWindow). */
  outputBesideWindow?: boolean;
  inputs?: ModelInput[];
  reasons?: boolean;
  callsTools?: boolean;
}

/**
 * Claude, GPT-5 and Gemini read images and PDFs (svc-proxy converts both to each), reason, and call
 * tools: what is taken of a model its provider's list does not describe. Anthropic's list states
 * what each model reads and whether it thinks (anthropic-capabilities.ts), so a running daemon's
 * catalog says otherwise for claude-3-5-haiku; Gemini's native list states which models think
 * (gemini-native-list.ts: not gemini-2.0-flash or Gemma); OpenAI's older families do not reason
 * (builtinReasons) and some read text only (builtinInputs).
 */
const BUILTIN_FACTS: Readonly<Record<string, Required<Omit<ModelFacts, 'contextWindow' | 'maxOutput' | 'outputBesideWindow'>>>> = {
  anthropic: { inputs: ['image', 'pdf'], reasons: true, callsTools: true },
  openai: { inputs: ['image', 'pdf'], reasons: true, callsTools: true },
  gemini: { inputs: ['image', 'pdf'], reasons: true, callsTools: true },
};

/** Only the model's providers are asked, each for up to 3 s; a daemon that is not answering must not hold `env` up longer. */
const LOOKUP_TIMEOUT_MS = 8_000;

export async function lookUpModelFacts(ctx: CliContext, config: Config, model: string, group: string | undefined): Promise<ModelFacts> {
  const ids = group ? (config.groups[group]?.models.find((m) => m.name === model)?.targets ?? []) : [model];
  const targets = ids.flatMap((id) => {
    const parts = splitModelId(id);
    return parts ? [{ id, ...parts }] : [];
  });
  if (targets.length === 0) return {};
  const listed = await listedModels(ctx, new Set(targets.map((t) => t.provider).filter((p) => !LISTS_WITHOUT_WINDOWS.has(p))));
  return combine(targets.map(({ id, provider, model: upstream }) => factsOf(listed.get(id), provider, upstream)));
}

function factsOf(entry: CatalogModel | undefined, provider: string, model: string): ModelFacts {
  const facts: ModelFacts = {};
  const window = entry?.contextWindow ?? documentedWindow(provider, model);
  if (window !== undefined) facts.contextWindow = window;
  const maxOutput = entry?.maxOutput ?? documentedMaxOutput(provider, model);
  if (maxOutput !== undefined) facts.maxOutput = maxOutput;
  if (window !== undefined && maxOutput !== undefined && outputBesideWindow(provider)) facts.outputBesideWindow = true;
  const inputs = entry?.inputs ?? builtinInputs(provider, model);
  if (inputs) facts.inputs = inputs;
  const reasons = entry?.reasons ?? builtinReasons(provider, model);
  if (reasons !== undefined) facts.reasons = reasons;
  const callsTools = entry?.callsTools ?? BUILTIN_FACTS[provider]?.callsTools;
  if (callsTools !== undefined) facts.callsTools = callsTools;
  return facts;
}

/**
 * Whether a built-in provider's model reasons where its list does not say (OpenAI's never does).
 * An OpenAI model reasons unless the daemon itself sends it no effort (openai-models.ts: gpt-4o,
 * gpt-4.1, gpt-3.5, chatgpt-*, gpt-5-chat); an id it does not know is taken for a current model, as
 * the daemon takes it when it sends effort, since every family OpenAI has added since o1 reasons.
 */
function builtinReasons(provider: string, model: string): boolean | undefined {
  if (provider === 'openai') return openaiEffortLevels(model).length > 0;
  return BUILTIN_FACTS[provider]?.reasons;
}

/** What a built-in provider's model reads where its list does not say (OpenAI's never does): all of them both, but OpenAI's text-only families. */
function builtinInputs(provider: string, model: string): ModelInput[] | undefined {
  if (provider === 'openai' && openaiTextOnly(model)) return [];
  return BUILTIN_FACTS[provider]?.inputs;
}

/** What holds whichever target answers. */
export function combine(all: ModelFacts[]): ModelFacts {
  const out: ModelFacts = {};
  const windows = all.flatMap((f) => (f.contextWindow === undefined ? [] : [f.contextWindow]));
  if (windows.length > 0) out.contextWindow = Math.min(...windows);
  // only when every target states one: a tool told the smallest asks no target for more than it writes
  if (all.length > 0 && all.every((f) => f.maxOutput !== undefined)) out.maxOutput = Math.min(...all.map((f) => f.maxOutput!));
  // the smallest window and output then hold for every target only when each target's output is beside its window
  if (out.maxOutput !== undefined && all.every((f) => f.outputBesideWindow)) out.outputBesideWindow = true;
  if (all.length > 0 && all.every((f) => f.inputs)) out.inputs = (['image', 'pdf'] as const).filter((i) => all.every((f) => f.inputs!.includes(i)));
  if (all.length > 0 && all.every((f) => f.reasons === true)) out.reasons = true;
  // known not to: a tool's note then asks no one to turn reasoning on for it
  else if (all.some((f) => f.reasons === false)) out.reasons = false;
  if (all.length > 0 && all.every((f) => f.callsTools === true)) out.callsTools = true;
  return out;
}

async function listedModels(ctx: CliContext, providers: ReadonlySet<string>): Promise<Map<string, CatalogModel>> {
  if (providers.size === 0) return new Map();
  const { connectAdmin } = await import('../connect-admin.js');
  const client = await connectAdmin(ctx).catch(() => null);
  if (!client) return new Map();
  try {
    const answer = await client.models(providers, LOOKUP_TIMEOUT_MS);
    return new Map(answer.models.map((m) => [m.id, m]));
  } catch {
    return new Map();
  }
}
