/**
 * A converted stream is masked event by event (echoed-secrets.ts on each flush), so a credential
 * the model writes across two text deltas ("sk-ant-ap" then "i03-…") would go out unmasked. When
 * a delta's text ends with the start of the secret, that end (at most secret length − 1
 * characters) is held and put in front of the next text delta, where the whole secret meets the
 * mask; any other event lets it go first. The common delta costs one search for the secret's
 * first character in its last characters.
 */
export class SplitSecretHold {
  private readonly secret: string;
  private readonly first: string;
  private held = '';
  /** The block the held text belongs to. */
  private heldIndex = 0;

  constructor(secret: string) {
    this.secret = secret;
    this.first = secret[0]!;
  }

  get holding(): boolean {
    return this.held !== '';
  }

  /** Held text of another block than `index`: it must go out before that block's text. */
  heldFor(index: number): boolean {
    return this.held !== '' && this.heldIndex !== index;
  }

  /** The text of a delta of block `index` to send now: the held text in front, any start of the secret at its end kept back. */
  pass(index: number, text: string): string {
    if (this.held !== '') {
      text = this.held + text;
      this.held = '';
    }
    const from = text.length - this.secret.length + 1;
    let at = text.indexOf(this.first, from > 0 ? from : 0);
    if (at === -1) return text;
    // rare: the end may start the secret; the earliest such start keeps the most back
    while (at !== -1) {
      if (this.secret.startsWith(text.slice(at))) {
        this.held = text.slice(at);
        this.heldIndex = index;
        return text.slice(0, at);
      }
      at = text.indexOf(this.first, at + 1);
    }
    return text;
  }

  /** The held text, given up (another event comes, or the stream ends): it was no secret after all. */
  release(): { index: number; text: string } {
    const out = { index: this.heldIndex, text: this.held };
    this.held = '';
    return out;
  }
}
