/**
 * Whether a Chat target gets a system message from the middle of a conversation where the client
 * wrote it (encode option `systemInPlace`), or joined to the leading system message as before.
 *
 * Most servers take it in place, and a chat template that refuses it says so and gets the request
 * again with its system text moved (routing/system-placement.ts). Two model families go joined:
 * Mistral's API refuses a system turn after an assistant turn (400 "Unexpected role 'system'
 * after role 'assistant'", swarmauri-sdk#162; the refit reads it, but joining first saves the
 * refused round trip); Gemini's OpenAI-compatible layer, also behind OpenRouter, keeps only the
 * last system message it is given (codecompanion.nvim#2530, pipecat#3362), which would drop the
 * leading prompt.
 */
import { memoByString } from '../util/string-memo.js';
import { isMistralModel } from './mistral-tool-ids.js';

/** Tested once per model id (util/string-memo.ts): every Chat request's encode options ask it. */
export const keepsSystemInPlace = memoByString((model) => !isMistralModel(model) && !/gemini/i.test(model));
