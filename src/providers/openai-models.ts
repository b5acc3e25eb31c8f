/**
 * Which effort levels an OpenAI model takes (PROTOCOLS.md §7.1), so a level the model lacks is
 * snapped to one it has instead of failing with 400 unsupported_value. Unknown ids are read as
 * current models (up to `xhigh`).
 */
import type { Effort } from '../protocols/hub.js';

const TO_HIGH: readonly Effort[] = ['low', 'medium', 'high'];
const TO_XHIGH: readonly Effort[] = ['low', 'medium', 'high', 'xhigh'];
const ONLY_HIGH: readonly Effort[] = ['high'];
const DATE = '(?:-\\d{4}-\\d{2}-\\d{2})?';
const NON_REASONING = /^(gpt-4|gpt-3\.5|chatgpt-|gpt-5-chat)/;
const O_SERIES = /^o\d/;
const GPT5_PRO = new RegExp(`^gpt-5-pro${DATE}$`);
const GPT5 = new RegExp(`^gpt-5(?:-mini|-nano|-codex)?${DATE}$`);
const GPT51 = new RegExp(`^gpt-5\\.1(?:-codex|-codex-mini)?${DATE}$`);

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
