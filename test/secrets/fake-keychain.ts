/** An in-memory Keychain for logic tests; `unavailable` makes every call fail like a missing Secret Service. */
import { KeychainUnavailableError, type Keychain } from '../../src/secrets/keychain.js';

export class FakeKeychain implements Keychain {
  readonly service = 'fake';
  readonly entries = new Map<string, string>();
  unavailable: string | null = null;

  private check(): void {
    if (this.unavailable) throw new KeychainUnavailableError(this.unavailable);
  }
  async get(account: string) {
    this.check();
    return this.entries.get(account) ?? null;
  }
  async set(account: string, secret: string) {
    this.check();
    this.entries.set(account, secret);
  }
  async delete(account: string) {
    this.check();
    return this.entries.delete(account);
  }
  async probe() {
    return this.unavailable ? { available: false as const, reason: this.unavailable } : { available: true as const };
  }
}
