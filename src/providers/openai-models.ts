/**
 * Which effort levels an OpenAI model takes (PROTOCOLS.md §7.1), so a level the model lacks is
 * snapped to one it has instead of failing with 400 unsupported_value. Unknown ids are read as
 * current models (up to `xhigh`).
 */
import type { Effort } from '../protocols/hub.js';

const TO_HIGH: readonly Effort[] = ['low', 'medium', 'high'];
const TO_XHIGH: readonly Effort[] = ['low', 'medium', 'high', 'xhigh'];
const DATE = '(?:-\\d{4}-\\d{2}-\\d{2})?';

/** Levels for `reasoning.effort`; empty = not a reasoning model, send no effort. */
export function openaiEffortLevels(model: string): readonly Effort[] {
  const id = model.toLowerCase();
  if (/^(gpt-4|gpt-3\.5|chatgpt-|gpt-5-chat)/.test(id)) return [];
  if (/^o\d/.test(id)) return TO_HIGH;
  if (new RegExp(`^gpt-5-pro${DATE}$`).test(id)) return ['high'];
  if (new RegExp(`^gpt-5(?:-mini|-nano|-codex)?${DATE}$`).test(id)) return TO_HIGH;
  if (new RegExp(`^gpt-5\\.1(?:-codex|-codex-mini)?${DATE}$`).test(id)) return TO_HIGH;
  return TO_XHIGH;
}
