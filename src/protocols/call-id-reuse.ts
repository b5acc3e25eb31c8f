/**
 * Models that number their calls per turn repeat ids across a conversation (Kimi's `list_dir:0`,
 * vllm-project/vllm#50295). A call that reuses the id of an earlier, answered call is a new call:
 * it and its result get a fresh hub id (`<id>_2`, `_3` …), since Anthropic wants tool_use ids and
 * OpenAI's Responses API call ids unique in a request. The first use keeps its id, and a history
 * sent again gets the same ids again, so a cached prefix stays the same.
 */
export class CallIdReuse {
  private readonly used = new Set<string>();

  /** The hub id for the next call the client names `clientId`. */
  idFor(clientId: string): string {
    let id = clientId;
    for (let n = 2; this.used.has(id); n++) id = `${clientId}_${n}`;
    this.used.add(id);
    return id;
  }
}
