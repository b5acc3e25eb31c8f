/**
 * A tool result's text parts as the one string a Chat tool message or a Responses
 * function_call_output takes: a line between parts, where a Messages upstream keeps them as
 * blocks apart (an MCP list of "README.md" and "src/" must not read "README.mdsrc/").
 */
export function joinedResultTexts(texts: readonly string[]): string {
  return texts.join('\n');
}
