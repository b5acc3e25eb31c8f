/**
 * What the providers screen says of a disconnect that removed nothing (a provider its environment
 * variable connects, say), with what the daemon said of credentials.json's mode when it looked
 * as its notice: short of rows the outcome keeps its first line and the notice, which carries the
 * fix (chmod), the rows after it (Message.tsx's messageRows).
 */
import type { DisconnectResult } from '../../secrets/operations.js';
import { nothingRemoved } from '../../cli/disconnect-wording.js';
import type { Flash } from '../components/Message.js';
import { withNotices } from './notice-flash.js';

export function nothingRemovedFlash(res: Pick<DisconnectResult, 'name' | 'keychainError' | 'stillConnectedViaEnv' | 'modeNotices'>): Flash {
  return withNotices({ kind: 'info', text: nothingRemoved(res) }, res.modeNotices);
}
