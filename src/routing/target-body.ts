/**
 * A request body built for one target of a generate request, and what the target's refusals teach
 * about the next one (a Chat body's fit, a prefill to continue, the efforts the model takes).
 */
import type { Effort } from '../protocols/hub.js';
import type { ResolvedProvider } from '../providers/types.js';
import { fitChatBody, learnFromRefusal, learnOutputFit, type ChatFit, type Fitted } from './chat-fit.js';
import { effortLevelsFrom } from './effort-refusal.js';
import type { FreeformNames } from './freeform-tools.js';
import { fitMessagesBody } from './messages-fit.js';
import { refusesPrefill } from './prefill-continue.js';
import { fitResponsesBody } from './responses-fit.js';
import { templateRefusedAs500 } from './system-placement.js';
import type { ToolUseIdRewrites } from './tool-use-id-rewrites.js';
import { refusesRepeatedToolUseIds } from './unique-tool-use-ids.js';
import { refusesToolUseIdPattern } from './valid-tool-use-ids.js';
import { thinkLevelsFrom } from './think-value-refusal.js';
import type { ToolNameMap } from './tool-names.js';
import type { UpstreamFailure } from './upstream-errors.js';
import type { UpstreamFits } from './upstream-fits.js';

/** A request body ready for one target. */
export interface Built {
  bytes: string | Buffer;
  upstreamModel: string;
  effortSent?: string;
  passthrough: boolean;
  toolNames?: ToolNameMap;
  freeform?: FreeformNames;
  /** What the body asks of its upstream, as fitted (chat-fit.ts, messages-fit.ts, responses-fit.ts). */
  fitted?: Fitted;
  /** A converted body to a Messages upstream with a server tool: the turn may pause (pause-continue.ts). */
  mayPause?: boolean;
  /** Stop sequences the converted body could not carry: routing cuts the answer at them (stop-cut-*.ts). */
  stops?: string[];
  /** A Messages body passed through whose tool_use ids were rewritten: the rewrites that changed it (tool-use-id-rewrites.ts). */
  idRewrites?: ToolUseIdRewrites;
}

/** What one request learnt from its upstream's refusals: a Chat body's fit, whether to end on a user turn, the efforts the model takes. */
export interface RequestFit extends ChatFit, ToolUseIdRewrites {
  continuePrefill?: boolean;
  effortLevels?: readonly Effort[];
}

/** The same body bytes, whether kept as the client's Buffer or written as a string. */
export function sameBytes(a: string | Buffer, b: string | Buffer): boolean {
  if (typeof a === 'string' && typeof b === 'string') return a === b;
  return Buffer.from(a).equals(Buffer.from(b));
}

/** The model refused the effort parameter: the request went without one (the log says so). */
export function wentWithoutEffort(fitted: Fitted | undefined): boolean {
  return fitted?.droppedParams?.includes('reasoning_effort') === true;
}

/** A body fitted to what its upstream takes: Chat fits (chat-fit.ts), or the output allowance alone. */
export function fitBody(fits: UpstreamFits, p: ResolvedProvider, upstreamModel: string, body: Record<string, unknown>, fit: ChatFit | undefined): Fitted {
  switch (p.adapter.dialect) {
    case 'chat':
      return fitChatBody(fits, p.slug, upstreamModel, body, fit);
    case 'messages':
      return fitMessagesBody(fits, p.slug, upstreamModel, body, fit);
    case 'responses':
      return fitResponsesBody(fits, p.slug, upstreamModel, body, fit);
  }
}

/** An upstream's refusal of the body itself: a 400, a 422, or llama.cpp's 500 for a chat template's refusal. */
export function refusesBody(failure: UpstreamFailure): boolean {
  return failure.upstreamStatus === 400 || failure.upstreamStatus === 422 || templateRefusedAs500(failure.upstreamStatus, failure.message);
}

/**
 * Add what a refusal teaches to `fit` (chat-fit.ts, prefill-continue.ts, unique-tool-use-ids.ts,
 * valid-tool-use-ids.ts, effort-refusal.ts); false when it teaches nothing new.
 */
export function learnFromFailure(fits: UpstreamFits, p: ResolvedProvider, built: Built, failure: UpstreamFailure, fit: RequestFit): boolean {
  if (!fit.continuePrefill && refusesPrefill(failure.message)) {
    fit.continuePrefill = true;
    return true;
  }
  if (built.passthrough && p.adapter.dialect === 'messages') {
    if (!fit.uniqueToolUseIds && refusesRepeatedToolUseIds(failure.message)) {
      fit.uniqueToolUseIds = true;
      return true;
    }
    if (!fit.validToolUseIds && refusesToolUseIdPattern(failure.message)) {
      fit.validToolUseIds = true;
      // such ids come from models that number their calls per turn (Kimi): repeats are looked for
      // in the same go, or Anthropic, which checks the pattern first, refuses them next
      fit.uniqueToolUseIds = true;
      return true;
    }
  }
  const levels = built.effortSent === undefined ? undefined : (effortLevelsFrom(failure.message, built.effortSent) ?? thinkLevelsFrom(failure.message));
  if (levels) {
    fits.setEffortLevels(p.slug, built.upstreamModel, levels);
    fit.effortLevels = levels;
    return true;
  }
  const { fitted } = built;
  if (!fitted) return false;
  if (p.adapter.dialect === 'chat') return learnFromRefusal(fits, p.slug, built.upstreamModel, failure.message, fitted, fit) !== undefined;
  return learnOutputFit(fits, p.slug, built.upstreamModel, failure.message, fitted, fit);
}
