/**
 * Which effort levels an OpenAI model takes (PROTOCOLS.md §7.1), so a level the model lacks is
 * snapped to one it has instead of failing with 400 unsupported_value. Unknown ids are read as
 * current models (up to `xhigh`). And when it takes sampling parameters (temperature, top_p,
 * top_logprobs), which reasoning models refuse with a 400.
 */
import { OPENAI_ID_DATE } from './openai-id-date.js';
import type { Effort } from '../protocols/hub.js';

const TO_HIGH: readonly Effort[] = ['low', 'medium', 'high'];
const TO_XHIGH: readonly Effort[] = ['low', 'medium', 'high', 'xhigh'];
const ONLY_HIGH: readonly Effort[] = ['high'];
const NON_REASONING = /^(gpt-4|gpt-3\.5|chatgpt-|gpt-5-chat)/;
const O_SERIES = /^o\d/;
const GPT5_PRO = new RegExp(`^gpt-5-pro${OPENAI_ID_DATE}$`);
const GPT5 = new RegExp(`^gpt-5(?:-mini|-nano|-codex)?${OPENAI_ID_DATE}$`);
const GPT51 = new RegExp(`^gpt-5\\.1(?:-codex|-codex-mini)?${OPENAI_ID_DATE}$`);
/** gpt-5.1, 5.2 and 5.4 reason only when asked (effort `none` is their default); 5.5+ default to medium. */
const NONE_BY_DEFAULT = new RegExp(`^gpt-5\\.[124]${OPENAI_ID_DATE}$`);
const REASONING_FAMILY = /^(o\d|gpt-\d|codex-)/;

/** Levels for `reasoning.effort`; empty = not a reasoning model, send no effort. */
export function openaiEffortLevels(model: string): readonly Effort[] {
  const id = model.toLowerCase();
  if (NON_REASONING.test(id)) return [];
  if (O_SERIES.test(id)) return TO_HIGH;
  if (GPT5_PRO.test(id)) return ONLY_HIGH;
  if (GPT5.test(id)) return TO_HIGH;
  if (GPT51.test(id)) return TO_HIGH;
  return TO_XHIGH;
}

const GPT5_MINIMAL = new RegExp(`^gpt-5(?:-mini|-nano)?${OPENAI_ID_DATE}$`);
/** gpt-5.5 and later gpt-5.x: they reason by default (medium) and, as every gpt-5.x since 5.1, take `none`. */
const REASONING_BY_DEFAULT_NONE_TAKEN = new RegExp(`^gpt-5\\.(?:[5-9]|[1-9]\\d+)${OPENAI_ID_DATE}$`);

/**
 * What a request that turns reasoning off sends: `none` to gpt-5.5 and later, whose default is
 * medium (OpenAI's reasoning guide; `none` is taken by every model since gpt-5.1, per the API
 * reference); gpt-5 and its mini and nano, which have no `none`, reason least at `minimal` (their
 * default is medium too). Undefined: send no effort (gpt-5.1, 5.2 and 5.4 then do not reason;
 * o-series cannot be turned off; gpt-5.1-codex refuses `none`, OpenAI's 400 lists low to high;
 * variants whose levels are not documented keep their default). A
 * model that refuses the level gets the nearest it lists (effort-refusal.ts).
 */
export function openaiOffEffort(model: string): 'minimal' | 'none' | undefined {
  const id = model.toLowerCase();
  if (REASONING_BY_DEFAULT_NONE_TAKEN.test(id)) return 'none';
  return GPT5_MINIMAL.test(id) ? 'minimal' : undefined;
}

/**
 * When sampling parameters may be sent: `always` (a model that does not reason, or an id we do not
 * know: sent as the client wrote them), `unreasoned` (only while the request runs at effort none:
 * "temperature, top_p and logprobs when reasoning effort is none", OpenAI's GPT-5.1 parameter
 * compatibility notes), `never` (o-series, gpt-5 and its variants, codex-*, the gpt-5.x variants and
 * gpt-5.5+ whose default is to reason: they take the default value at most).
 */
export function openaiSampling(model: string): 'always' | 'unreasoned' | 'never' {
  const id = model.toLowerCase();
  if (NON_REASONING.test(id)) return 'always';
  if (NONE_BY_DEFAULT.test(id)) return 'unreasoned';
  return REASONING_FAMILY.test(id) ? 'never' : 'always';
}
