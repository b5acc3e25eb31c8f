/**
 * Service keys echoed in a passthrough stream (a model repeating a key it found in the prompt),
 * whose bytes otherwise reach the client untouched. The network may cut a key anywhere, so the end
 * of a read that may start one is held for the next read (service-key-tail.ts) and each key is
 * masked once it is whole. The usual read costs a look at its last byte and one or two byte
 * searches for `sk-svc` (service-key-hint.ts), and passes as the same Buffer.
 */
import { SERVICE_KEY_PREFIX, SERVICE_KEY_RE } from '../util/key-shapes.js';
import { holdsServiceKeyHint } from './service-key-hint.js';
import { mayEndInShortPrefix, serviceKeyTailStart } from './service-key-tail.js';

const MASK = '[REDACTED]';
const EMPTY = Buffer.alloc(0);

export class ServiceKeyStreamMask {
  /** The end of the last read that may start a key (at most the prefix and HELD_RUN_LIMIT characters). */
  private held: Buffer | undefined;

  /** The bytes that may go to the client now (possibly empty). */
  push(chunk: Buffer): Buffer {
    const last = chunk.length - 1;
    if (this.held === undefined && (last < 0 || (!mayEndInShortPrefix(chunk[last]!) && !holdsServiceKeyHint(chunk)))) return chunk;
    const bytes = this.held === undefined ? chunk : Buffer.concat([this.held, chunk]);
    this.held = undefined;
    // latin1: one character per byte, every byte kept as it was; the key is ASCII
    const text = bytes.toString('latin1');
    const hold = serviceKeyTailStart(text);
    if (hold === -1) return masked(bytes, text);
    this.held = Buffer.from(bytes.subarray(hold));
    return masked(bytes.subarray(0, hold), text.slice(0, hold));
  }

  /** The stream ends: what was held goes out, masked when it is a key. */
  flush(): Buffer {
    const rest = this.held ?? EMPTY;
    this.held = undefined;
    return masked(rest, rest.toString('latin1'));
  }
}

function masked(bytes: Buffer, text: string): Buffer {
  if (!text.includes(SERVICE_KEY_PREFIX)) return bytes;
  const out = text.replace(SERVICE_KEY_RE, MASK);
  return out === text ? bytes : Buffer.from(out, 'latin1');
}
