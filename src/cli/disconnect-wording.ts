/**
 * What a provider disconnect that removed nothing says, in the words of what is true now: shared
 * by `svc-proxy provider disconnect` and the TUI's providers screen so both say the same.
 */
import type { DisconnectResult } from '../secrets/operations.js';

export function nothingRemoved(result: Pick<DisconnectResult, 'name' | 'keychainError' | 'stillConnectedViaEnv'>): string {
  const { name, keychainError, stillConnectedViaEnv: variable } = result;
  const viaEnv = variable ? `connected through ${variable} in the daemon's environment, which svc-proxy does not change (unset it where the daemon is started)` : '';
  if (keychainError) {
    // the variable first: the keychain's reason can be long, and a short screen cuts the end
    const unchecked = `no key for ${name} in the 0600 file, and the OS keychain could not be checked (${keychainError}); if it holds a key for ${name}, remove it there.`;
    return viaEnv ? `Nothing removed: ${name} is ${viaEnv}; ${unchecked}` : `Nothing removed: ${unchecked}`;
  }
  if (viaEnv) return `${name} has no stored key to remove; it is ${viaEnv}.`;
  return `${name} is not connected: no key is stored for it, so nothing was removed.`;
}
