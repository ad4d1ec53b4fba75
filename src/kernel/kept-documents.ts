/**
 * Documents a process keeps by key (catalogs, occupancy), bounded in count and in size, the
 * least recently used forgotten first when a new one would pass either bound. `size` is what a
 * document weighs against the size bound (characters of its JSON, or an estimate of its bytes).
 */
export class KeptDocuments<T extends { size: number }> {
  private readonly docs = new Map<string, T>();
  private chars = 0;
  /** documents forgotten to make room */
  evicted = 0;

  constructor(
    private readonly maxCount: number,
    private readonly maxChars: number,
    private readonly maxOne: number,
  ) {}

  /** The document of `key`, which becomes the most recently used. */
  get(key: string): T | undefined {
    const doc = this.docs.get(key);
    if (doc !== undefined) {
      // a Map iterates in insertion order: moving the key to the end makes the order the use's
      this.docs.delete(key);
      this.docs.set(key, doc);
    }
    return doc;
  }

  /** Keeps `doc` unless it alone is larger than a document may be. */
  keep(key: string, doc: T): void {
    this.forget(key);
    if (doc.size > this.maxOne) return;
    while (this.docs.size && (this.docs.size >= this.maxCount || this.chars + doc.size > this.maxChars)) {
      this.forget(this.docs.keys().next().value!);
      this.evicted++;
    }
    this.docs.set(key, doc);
    this.chars += doc.size;
  }

  forget(key: string): void {
    const doc = this.docs.get(key);
    if (!doc) return;
    this.docs.delete(key);
    this.chars -= doc.size;
  }

  /** count and size kept */
  get held(): { count: number; chars: number } {
    return { count: this.docs.size, chars: this.chars };
  }
}
