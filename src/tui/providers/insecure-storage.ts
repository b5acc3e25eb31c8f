/**
 * No usable OS keychain for a credential typed in: the daemon refuses to store it unless told it
 * may use its 0600 file, so the screen asks first — for a provider's key (`c`) and for a new
 * endpoint's alike.
 */
import { AdminApiError } from '../../cli/admin-client.js';
import { fittingQuestion } from '../components/Confirm.js';

/** The daemon's refusal to store a credential for want of a keychain. */
export const noKeychain = (err: unknown): boolean => err instanceof AdminApiError && err.code === 'keychain_unavailable';

/** What the screen says while it asks: nothing is stored until the answer. */
export const NOTHING_STORED_YET = 'No usable OS keychain: nothing stored yet.';

/** Whether to keep `name`'s key in the file instead, in the fullest words that fit `lines` lines. */
export function insecureQuestion(name: string, width: number, lines: number): string {
  return fittingQuestion(
    [`No usable OS keychain. Store the ${name} key in a 0600 file in the state directory instead (insecure)?`, `No OS keychain. Store the ${name} key in a 0600 file (insecure)?`, 'No keychain. File (insecure)?'],
    width,
    lines,
  );
}
