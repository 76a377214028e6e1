/**
 * dynalite 4.0.0 turns LevelDB iterators into streams and, when a stream is destroyed, closes its
 * iterator with `iterator.return()`. The iterators of abstract-level 3 (under classic-level, which
 * dynalite stores its tables in) have no `return` method, only `close()`, so dynalite never closed
 * them: every Query and Scan left an open LevelDB iterator behind, registered with the database and
 * pinning LevelDB's memory. Under the soak (`npm run soak`) that was the local server's memory
 * growing by hundreds of MB per minute.
 *
 * Giving the iterators a `return` that closes them (what an async iterator's `return` means) lets
 * dynalite's own cleanup work. It is applied once, before dynalite opens its database.
 */
import { AbstractIterator, AbstractKeyIterator, AbstractValueIterator } from 'abstract-level';

interface Closable {
  close(): Promise<void>;
  return?: () => Promise<{ done: true; value: undefined }>;
}

export function letDynaliteCloseItsIterators(): void {
  for (const iteratorClass of [AbstractIterator, AbstractKeyIterator, AbstractValueIterator]) {
    const prototype = iteratorClass.prototype as unknown as Closable;
    if (typeof prototype.return === 'function') continue;
    prototype.return = async function (this: Closable) {
      await this.close();
      return { done: true, value: undefined };
    };
  }
}
