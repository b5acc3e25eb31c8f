/**
 * The OpenAI families known to read text only (OpenAI's list states no model's inputs): gpt-3.5,
 * the first gpt-4 and its turbo previews (images came with gpt-4-turbo of 2024-04-09), and o1-mini,
 * o1-preview and o3-mini ("o3-mini, o1-mini and o1-preview still don't support it",
 * SillyTavern/SillyTavern#3470). PDFs reach OpenAI's models as page images besides the text, so
 * a model that reads no images reads no PDFs. Any other id is taken to read both, as every family
 * since gpt-4o does.
 */
import { OPENAI_ID_DATE } from './openai-id-date.js';
const TEXT_ONLY = new RegExp(`^(?:gpt-3\\.5|gpt-4(?:-32k)?(?:-0314|-0613)?$|gpt-4-(?:1106|0125|turbo)-preview$|o1-mini${OPENAI_ID_DATE}$|o1-preview${OPENAI_ID_DATE}$|o3-mini${OPENAI_ID_DATE}$)`);

export function openaiTextOnly(model: string): boolean {
  return TEXT_ONLY.test(model.toLowerCase());
}
