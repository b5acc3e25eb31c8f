/** The hidden command completion scripts call for names from config.json (completion-values.ts). */
export const COMPLETE_COMMAND = '__complete';
