/**
 * Chat and Responses have no error flag on a tool result (Messages has `is_error`): a failed
 * result says so in its text, with this prefix, so the model still knows the call failed.
 */
export const TOOL_ERROR_PREFIX = 'Error: ';

/** The prefix a failed result's text needs: none when it already says so ("Error: …", "error: …"). */
export function toolErrorPrefix(isError: boolean | undefined, text: string): string {
  return isError && !/^\s*error\b/i.test(text) ? TOOL_ERROR_PREFIX : '';
}
