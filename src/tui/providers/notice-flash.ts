/**
 * A flash that carries the daemon's credentials.json notices (made 0600, or open with the chmod to
 * run) has them as its `notice`, so the providers screen gives it the lines it needs: with a realistic
 * state path the two usual lines cut the path or its chmod command at 80 columns. A notice is news to
 * act on (others may have read the file), so a plain success says it as a note, not a ✓.
 */
import type { Flash } from '../components/Message.js';

export function withNotices(flash: Flash, modeNotices: readonly string[] | undefined): Flash {
  if (!modeNotices?.length) return flash;
  return { ...flash, kind: flash.kind === 'ok' ? 'info' : flash.kind, notice: `Note: ${modeNotices.join('; ')}.` };
}
