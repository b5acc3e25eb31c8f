/**
 * Chat and Responses have no error flag on a tool result (Messages has `is_error`): a failed
 * result says so in its text, with this prefix, so the model still knows the call failed.
 */
export const TOOL_ERROR_PREFIX = 'Error: ';
