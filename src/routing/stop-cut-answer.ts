/**
 * A whole answer from a target that could not take the request's stop sequences, cut where the
 * first of them begins, as the model would have stopped there: the text before it stays, what
 * came after (more text, calls) goes, and the answer ends as a stop sequence.
 */
import type { HubResponse, OutputItem, TextPart } from '../protocols/hub.js';
import { firstStop, tokensBefore } from './stop-match.js';

/** Cut `res` in place at its first stop sequence; false when its text holds none. */
export function cutAnswerAtStop(res: HubResponse, stops: readonly string[]): boolean {
  for (let i = 0; i < res.output.length; i++) {
    const item = res.output[i]!;
    if (item.type !== 'message') continue;
    for (let p = 0; p < item.content.length; p++) {
      const part = item.content[p]!;
      if (part.type !== 'text') continue;
      const match = firstStop(part.text, stops);
      if (match === undefined) continue;
      const kept: OutputItem = { ...item, content: [...item.content.slice(0, p), cutText(part, match.at)] };
      res.output = [...res.output.slice(0, i), kept];
      res.stopReason = 'stop_sequence';
      res.stopSequence = match.stop;
      return true;
    }
  }
  return false;
}

/** The part's text before `at`, with the citations of that text only. */
function cutText(part: TextPart, at: number): TextPart {
  const cut: TextPart = { ...part, text: part.text.slice(0, at) };
  if (part.citations) {
    const citations = part.citations.filter((c) => (c.start ?? 0) < at).map((c) => (c.end !== undefined && c.end > at ? { ...c, end: at } : c));
    if (citations.length > 0) cut.citations = citations;
    else delete cut.citations;
  }
  if (part.logprobs) {
    const logprobs = tokensBefore(part.logprobs, at);
    if (logprobs) cut.logprobs = logprobs;
    else delete cut.logprobs;
  }
  return cut;
}
