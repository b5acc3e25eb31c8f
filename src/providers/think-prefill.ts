/**
 * Model families whose chat template ends the generation prompt with `<think>\n`, so that a server
 * without a reasoning parser (vLLM without `--reasoning-parser`, llama-server with
 * `--reasoning-format none`, LM Studio with reasoning parsing off) returns "reasoning…</think>\n\n
 * answer": only the closing tag. The Chat decoders then start inside the reasoning block
 * (DecodeOptions.startsInsideThink; the rule is in protocols/chat/think-tags.ts). Keyed on the model
 * id, since the same model sits behind vLLM, llama.cpp, LM Studio or a gateway alike.
 *
 * The makers say so: the Qwen3 *-Thinking-2507 model cards ("the default chat template
 * automatically includes <think>. Therefore, it is normal for the model's output to contain only
 * </think> without an explicit opening <think> tag"); QwQ-32B's usage guidelines (the model should
 * begin with "<think>\n", which apply_chat_template with add_generation_prompt=True does); DeepSeek-R1
 * (the card recommends "enforcing the model to initiate its response with <think>\n", and the
 * template update of 2025 appends `<|Assistant|><think>\n`; hf.co/deepseek-ai/DeepSeek-R1
 * discussion 144). vLLM's deepseek_r1 parser treats everything before `</think>` as reasoning when no
 * `<think>` came, and llama.cpp marks a prompt ending in `<think>\n` as `thinking_forced_open`.
 * QwQ-32B-Preview predates the tags and is left out.
 */
import type { DecodeOptions } from '../protocols/codec.js';

/**
 * qwen3…thinking-2507, qwq not followed by preview, deepseek-r1. Substring scans rather than
 * `.*` regexes, which backtrack quadratically on a long crafted model id.
 */
export function templateOpensThink(model: string): boolean {
  const id = model.toLowerCase();
  const qwen3 = id.indexOf('qwen3');
  if (qwen3 !== -1 && id.includes('thinking-2507', qwen3 + 5)) return true;
  const qwq = id.lastIndexOf('qwq');
  if (qwq !== -1 && !id.includes('preview', qwq + 3)) return true;
  return id.includes('deepseek-r1');
}

/** Decode options for a local or custom Chat target serving `model`. */
export function chatDecodeOptions(model: string): DecodeOptions | undefined {
  return templateOpensThink(model) ? { startsInsideThink: true } : undefined;
}
