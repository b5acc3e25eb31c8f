/**
 * What the providers screen says of a disconnect that removed nothing (a provider its environment
 * variable connects, say), with what the daemon said of credentials.json's mode when it looked:
 * the file's notice first, as it carries the fix (chmod) and the row still shows the variable, so
 * where even the lines it is given run out the … cuts the outcome's end, not the command.
 */
import type { DisconnectResult } from '../../secrets/operations.js';
import { nothingRemoved } from '../../cli/disconnect-wording.js';
import type { Flash } from '../components/Message.js';

export function nothingRemovedFlash(res: Pick<DisconnectResult, 'name' | 'keychainError' | 'stillConnectedViaEnv' | 'modeNotices'>): Flash {
  const outcome = nothingRemoved(res);
  const notices = res.modeNotices ?? [];
  if (notices.length === 0) return { kind: 'info', text: outcome };
  return { kind: 'info', text: `Note: ${notices.join('; ')}. ${outcome}`, notice: true };
}
