/**
 * A flash that carries the daemon's credentials.json notices (made 0600, or open with the chmod to
 * run) is marked `notice`, so the providers screen gives it the lines it needs: with a realistic
 * state path the two usual lines cut the path or its chmod command at 80 columns.
 */
import type { Flash } from '../components/Message.js';

export function withNotices(flash: Flash, modeNotices: readonly string[] | undefined): Flash {
  return modeNotices?.length ? { ...flash, notice: true } : flash;
}
