/**
 * The stdin Ink reads keys from: the terminal's bytes, minus the key sequences that crash Ink 6
 * (ink-crashing-keys.ts). Ink reads it like a TTY stream (isTTY, setRawMode, ref/unref,
 * setEncoding, 'readable' + read()); raw mode and ref/unref go straight to the terminal's stream,
 * and the terminal is read only while Ink wants more.
 */
import { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { dropInkCrashingKeys } from './ink-crashing-keys.js';

export class KeySafeStdin extends Readable {
  readonly isTTY: boolean;
  private readonly decoder = new StringDecoder('utf8');
  private readonly onData = (chunk: Buffer | string): void => {
    const text = dropInkCrashingKeys(typeof chunk === 'string' ? chunk : this.decoder.write(chunk));
    if (text !== '' && !this.push(text)) this.source.pause();
  };
  private readonly onEnd = (): void => {
    this.push(null);
  };

  constructor(private readonly source: NodeJS.ReadStream) {
    super();
    this.isTTY = source.isTTY === true;
    // Paused first: adding the 'data' listener must not start reading before Ink asks.
    source.pause();
    source.on('data', this.onData);
    source.once('end', this.onEnd);
  }

  override _read(): void {
    this.source.resume();
  }

  get isRaw(): boolean {
    return this.source.isRaw === true;
  }

  setRawMode(mode: boolean): this {
    this.source.setRawMode(mode);
    return this;
  }

  ref(): this {
    this.source.ref();
    return this;
  }

  unref(): this {
    this.source.unref();
    return this;
  }

  /** Stops reading the terminal and lets go of it (after Ink has unmounted). */
  release(): void {
    this.source.off('data', this.onData);
    this.source.off('end', this.onEnd);
    this.source.pause();
  }
}
