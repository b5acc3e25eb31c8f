/** Fixed-size ring of the latest items: O(1) push, newest-first iteration, no reallocation. */
export class Ring<T> {
  private readonly items: (T | undefined)[];
  private next = 0;
  private count = 0;

  constructor(readonly capacity: number) {
    if (!Number.isInteger(capacity) || capacity < 1) throw new RangeError('ring capacity must be a positive integer');
    this.items = new Array<T | undefined>(capacity);
  }

  get size(): number {
    return this.count;
  }

  push(item: T): void {
    this.items[this.next] = item;
    this.next = (this.next + 1) % this.capacity;
    if (this.count < this.capacity) this.count++;
  }

  /** Newest first. */
  *newestFirst(): IterableIterator<T> {
    for (let i = 1; i <= this.count; i++) {
      yield this.items[(this.next - i + this.capacity) % this.capacity] as T;
    }
  }

  clear(): void {
    this.items.fill(undefined);
    this.next = 0;
    this.count = 0;
  }
}
