/** What `provider connect` says it did, in the CLI and the TUI alike: stored, and whether it is the key in use. */
import type { ConnectResult } from '../secrets/operations.js';

export interface ConnectOutcome {
  text: string;
  /** What else the user must know: another source wins, or one set but unusable leaves the key unused. */
  note?: string;
}

export function connectOutcome(r: ConnectResult): ConnectOutcome {
  const stored = `key …${r.last4 || '****'} stored in ${r.storedIn === 'keychain' ? 'the OS keychain' : 'the insecure credentials file'}`;
  if (r.unusableEnv !== undefined) {
    // "connected" would be untrue: the daemon uses no key for it while the variable is set
    const outcome: ConnectOutcome = { text: `${r.name}: ${stored}, but not used while ${r.unusableEnv} is set in the daemon's environment and unusable.` };
    if (r.credentialProblem !== undefined) outcome.note = r.credentialProblem;
    return outcome;
  }
  const outcome: ConnectOutcome = { text: `${r.name} connected (${stored}).` };
  if (r.overriddenByEnv) outcome.note = `${r.overriddenByEnv} is set in the daemon's environment and takes precedence.`;
  return outcome;
}
