/**
 * Anthropic's message threads (`thread`): only Anthropic holds one, so any other target would get
 * just the turn's new messages. It refuses the request with the `error_code` the Anthropic SDK
 * recovers from (thread_unsupported_request): its toolRunner sends the whole history again,
 * without a thread, which every target takes. A thread Anthropic lost (thread_not_found) the SDK
 * replays in a new one.
 */
import { ProtocolError } from '../protocols/errors.js';

const THREAD_UNSUPPORTED = 'thread_unsupported_request';

export function threadRefusal(slug: string): ProtocolError {
  return new ProtocolError(
    400,
    'unsupported_feature',
    `Message threads (thread) are held only by anthropic/… models; ${slug} cannot hold one. Send the whole conversation in messages, without thread.`,
    'thread',
    { error_code: THREAD_UNSUPPORTED, unsupported: ['thread'] },
  );
}

/**
 * Whether a group tells the client this refusal at once instead of trying its later targets: the
 * client lifts it by resending without the thread, and that request then goes to the targets in
 * the group's order. Passed over, a thread would go to a later anthropic/… target instead of the
 * first one, or, with anthropic/… failing, the client would get its failure and never fall back.
 */
export function isThreadRefusal(err: ProtocolError): boolean {
  return err.details?.error_code === THREAD_UNSUPPORTED;
}

/** Anthropic's answer to a continue of a thread it no longer holds (`error.details`). */
export function lostThread(details: Readonly<Record<string, unknown>> | undefined): boolean {
  return details?.error_code === 'thread_not_found';
}
