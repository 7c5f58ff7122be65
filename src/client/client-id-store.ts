import { isUtf8 } from 'node:buffer';
import type { ClientIdSource } from '../message/recipients.js';
import { firstInvalidUtf8 } from '../message/first-invalid-utf8.js';
import { firstControlCharacter } from '../message/control-character.js';
import { ClientIdError } from '../errors.js';

/**
 * Bytes per page of a store. IDs are stored back to back inside a page and never span two, so a page can be
 * decoded in one piece; an ID longer than this gets a page of its own. Pages, not one growing buffer, so the
 * store never holds an old and a new copy of everything while it grows.
 */
const PAGE_BYTES = 1 << 20;
const INITIAL_CAPACITY = 1024;
/** 2^-32: scales a 32-bit hash to a slot of a table of any size. */
const TWO_TO_MINUS_32 = 1 / 4294967296;
const FNV_OFFSET = 0x811c9dc5 | 0;
const FNV_PRIME = 0x01000193;
/**
 * A UTF-16 code unit that is half of a surrogate pair with no other half: such a string has no UTF-8 form. The
 * range is what `\p{Surrogate}` stands for (a /u expression matches a whole pair as one code point), written
 * out because V8 builds a property class from ICU's tables as the module loads, 1M instructions of a send.
 */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;

/** The storage a collector builds and a store reads; the store gets copies of the small arrays. */
interface Pages {
  /** UTF-8 bytes of the IDs; only the first `used` bytes of the last page are filled. */
  pages: Buffer[];
  /** Index of the first ID in each page. */
  firstIds: number[];
  /** Whether each page holds only ASCII, so a run of its IDs can be decoded at once and cut by offsets. */
  asciiPages: boolean[];
  /** Where each ID ends in its page; it starts where the one before it ends, or at 0 if it is the page's first. */
  ends: Int32Array;
  count: number;
  /** IDs that are not well-formed UTF-16 (a lone surrogate) have no UTF-8 form: kept as strings, zero bytes in a page. */
  odd: Map<number, string> | undefined;
}

/** Array-style relative index (negative counts from the end), clamped to `[0, length]`. */
function relativeIndex(value: number, length: number): number {
  const n = Math.trunc(value) || 0;
  return n < 0 ? Math.max(length + n, 0) : Math.min(n, length);
}

/**
 * Unique client IDs in first-seen order, held compactly: their UTF-8 bytes in 1 MiB pages plus one offset
 * per ID, about 36 MB for a million 32-character IDs where a `string[]` costs about 60 MB of heap and keeps
 * the garbage collector busy. Strings are made only for the slice asked for, so a send materialises one
 * batch at a time and a report one entry at a time. Read-only: a {@link ClientIdCollector} builds it.
 *
 * It reads like an array where it matters: `length`, `at`, `slice`, iteration, and `JSON.stringify` gives
 * the array. `slice` returns new strings on every call.
 */
export class ClientIdStore implements ClientIdSource, Iterable<string> {
  readonly length: number;
  private readonly pages: readonly Buffer[];
  private readonly firstIds: readonly number[];
  private readonly asciiPages: readonly boolean[];
  private readonly ends: Int32Array;
  private readonly odd: ReadonlyMap<number, string> | undefined;

  /** @internal Use `new ClientIdCollector().addAll(ids).result().ids`. */
  constructor(parts: Pages) {
    this.length = parts.count;
    this.pages = parts.pages.slice();
    this.firstIds = parts.firstIds.slice();
    this.asciiPages = parts.asciiPages.slice();
    this.ends = parts.ends;
    this.odd = parts.odd && new Map(parts.odd);
  }

  /** The ID at `index` (negative counts from the end), or undefined outside the store, like `Array.prototype.at`. */
  at(index: number): string | undefined {
    const i = Math.trunc(index) || 0;
    const at = i < 0 ? this.length + i : i;
    return at < 0 || at >= this.length ? undefined : this.slice(at, at + 1)[0];
  }

  /** The IDs from `start` to `end` (exclusive) as new strings, with the index rules of `Array.prototype.slice`. */
  slice(start = 0, end: number = this.length): string[] {
    const from = relativeIndex(start, this.length);
    const to = relativeIndex(end, this.length);
    if (to <= from) return [];
    // Sized once: grown by push, a batch's array was copied several times over, a quarter of what a
    // million-ID send allocated per request.
    const out = new Array<string>(to - from);
    const { ends } = this;
    for (const { page, ascii, first, stop, begin } of this.runs(from, to)) {
      // An ASCII run is decoded once, then cut: much cheaper than a decode per ID.
      const text = ascii ? page.toString('latin1', begin, ends[stop - 1]!) : undefined;
      for (let i = first, pos = begin; i < stop; pos = ends[i++]!) {
        out[i - from] = text === undefined ? page.toString('utf8', pos, ends[i]!) : text.slice(pos - begin, ends[i]! - begin);
      }
    }
    if (this.odd) for (const [index, id] of this.odd) if (index >= from && index < to) out[index - from] = id;
    return out;
  }

  /**
   * The IDs from `start` to `end` as the UTF-8 bytes of a JSON array, `JSON.stringify(slice(start, end))`
   * byte for byte, made from the stored bytes without a string per ID: the run journal writes every batch
   * before the first request, and a million strings made for it alone kept the garbage collector busy.
   */
  jsonBytes(start: number, end: number): Buffer {
    const from = relativeIndex(start, this.length);
    const to = relativeIndex(end, this.length);
    // IDs with no UTF-8 form are rare enough for the string path.
    if (this.odd) for (const index of this.odd.keys()) if (index >= from && index < to) return Buffer.from(JSON.stringify(this.slice(from, to)), 'utf8');
    const { ends } = this;
    // Each ID needs two quotes and a comma, each quote or backslash a backslash before it. Counted rather
    // than allowed for (twice the bytes): the journal asks for every batch, and the slack was as much
    // short-lived memory again as the IDs themselves.
    let size = 2;
    for (const { page, first, stop, begin } of this.runs(from, to)) {
      size += ends[stop - 1]! - begin + 3 * (stop - first);
      for (let pos = begin; pos < ends[stop - 1]!; pos++) if (page[pos] === 0x22 || page[pos] === 0x5c) size++;
    }
    const out = Buffer.allocUnsafe(size);
    let o = 0;
    out[o++] = 0x5b; // [
    for (const { page, first, stop, begin } of this.runs(from, to)) {
      for (let i = first, pos = begin; i < stop; i++) {
        if (i > from) out[o++] = 0x2c; // ,
        out[o++] = 0x22;
        for (const next = ends[i]!; pos < next; pos++) {
          const byte = page[pos]!;
          // Control characters are refused on input, so only the quote and the backslash need escaping.
          if (byte === 0x22 || byte === 0x5c) out[o++] = 0x5c;
          out[o++] = byte;
        }
        out[o++] = 0x22;
      }
    }
    out[o++] = 0x5d; // ]
    return out.subarray(0, o);
  }

  /** The IDs `[from, to)` page by page: each page's IDs `[first, stop)`, whose bytes start at `begin`. */
  private *runs(from: number, to: number): Generator<{ page: Buffer; ascii: boolean; first: number; stop: number; begin: number }> {
    const { firstIds, ends } = this;
    for (let p = from < to ? this.pageOf(from) : 0, i = from; i < to; p++) {
      const stop = p + 1 < firstIds.length ? Math.min(to, firstIds[p + 1]!) : to;
      yield { page: this.pages[p]!, ascii: this.asciiPages[p]!, first: i, stop, begin: i === firstIds[p] ? 0 : ends[i - 1]! };
      i = stop;
    }
  }

  /** Every ID, as one array. For small stores and for output that needs the whole list (`validate --json`). */
  toArray(): string[] {
    return this.slice(0, this.length);
  }

  toJSON(): string[] {
    return this.toArray();
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let start = 0; start < this.length; start += 1024) yield* this.slice(start, start + 1024);
  }

  /** The page holding ID `index`: the last page whose first ID is at or before it. */
  private pageOf(index: number): number {
    let low = 0;
    let high = this.firstIds.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if (this.firstIds[mid]! <= index) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}

/** What a collector hands over: the unique IDs, and how many repeats were dropped. */
export interface CollectedClientIds {
  ids: ClientIdStore;
  duplicates: number;
}

/**
 * Collects client IDs from any number of sources (`--client-id` values, then a file), trimming them,
 * skipping blanks and dropping repeats, so that every source follows the same rules; `result()` gives them
 * as a {@link ClientIdStore}.
 *
 * The rules are those of strings: an ID is `raw.trim()` (JavaScript's whitespace, Unicode included), and two
 * IDs are the same when their strings are equal. Lines read as bytes (`addUtf8`) take a fast path when they
 * are plain ASCII, and otherwise are decoded and added as strings, so both ways give the same result.
 *
 * Repeats are found with an open-addressing table of indices, comparing a 32-bit hash and then the bytes;
 * no string is made for an ID while reading.
 *
 * Growing the per-ID arrays and the table means copying them, the old and the new held at once, and
 * re-inserting every ID (random writes into a table of tens of megabytes: most of the reading time at five
 * million IDs). Told how many bytes of input are coming ({@link expectBytes}), the collector grows them once
 * to the size the bytes per new ID so far call for instead of doubling on the way; any size that is not a
 * power of two is fine for the table, which maps a hash to a slot by scaling rather than masking.
 */
export class ClientIdCollector {
  private readonly parts: Pages = { pages: [], firstIds: [], asciiPages: [], ends: new Int32Array(INITIAL_CAPACITY), count: 0, odd: undefined };
  /** The last page (where new IDs go) and how much of it is used. */
  private page: Buffer = Buffer.alloc(0);
  private used = 0;
  private hashes: Int32Array = new Int32Array(INITIAL_CAPACITY);
  /** Indices of IDs, -1 for an empty slot; kept at most half full so probes stay short. */
  private table: Int32Array = new Int32Array(2 * INITIAL_CAPACITY).fill(-1);
  /** Input bytes expected in all (see expectBytes), and given so far (each line counted with its line end). */
  private expectedBytes = 0;
  private bytesSeen = 0;
  /** The IDs that are not well-formed UTF-16, by their string. */
  private oddIndex: Map<string, number> | undefined;
  private duplicates = 0;
  /** Set by release(): no more IDs may be added. */
  private released = false;
  private snapshot: ClientIdStore | undefined;
  private readonly pageBytes: number;

  /** `pageBytes` (default 1 MiB) is for tests, to cross page boundaries with few IDs. */
  constructor(options: { pageBytes?: number } = {}) {
    this.pageBytes = Math.max(1, Math.floor(options.pageBytes ?? PAGE_BYTES));
  }

  /**
   * About how many bytes of lines are coming in all (a file's size), so the per-ID arrays and the table are
   * sized once rather than doubled on the way. Only a hint: a wrong one costs memory or a growth, never a
   * wrong result.
   */
  expectBytes(bytes: number): this {
    this.expectedBytes = Number.isFinite(bytes) && bytes > 0 ? bytes : 0;
    return this;
  }

  /** Add one raw ID: trimmed, skipped when blank, counted when a repeat. */
  add(raw: string): void {
    this.bytesSeen += raw.length + 1;
    this.addString(raw);
  }

  private addString(raw: string): void {
    const id = raw.trim();
    if (id === '') return;
    // A control character inside an ID (NUL, escape...): no device has such an ID, and it corrupts output.
    const control = firstControlCharacter(id);
    if (control) throw new ClientIdError(`the client ID ${JSON.stringify(id)} contains the control character ${control}`);
    const length = id.length;
    // Write the candidate's bytes after the last ID: kept if new, overwritten by the next one if not.
    this.reserve(length * 3);
    const page = this.page;
    const at = this.used;
    let ascii = true;
    let hash = FNV_OFFSET;
    for (let i = 0; i < length; i++) {
      const code = id.charCodeAt(i);
      if (code >= 0x80) {
        ascii = false;
        break;
      }
      page[at + i] = code;
      hash = Math.imul(hash ^ code, FNV_PRIME);
    }
    if (ascii) {
      this.insert(page, at, at + length, hash, true, true);
      return;
    }
    if (LONE_SURROGATE.test(id)) {
      this.addOdd(id);
      return;
    }
    const end = at + page.write(id, at, 'utf8');
    this.insert(page, at, end, hashBytes(page, at, end), false, true);
  }

  /**
   * Add one raw ID given as UTF-8 bytes: the same as `add(bytes.toString('utf8', start, end))`, without
   * making a string when the bytes are plain ASCII.
   */
  addUtf8(bytes: Buffer, start = 0, end: number = bytes.length): void {
    this.bytesSeen += end - start + 1;
    while (start < end && isAsciiSpace(bytes[start]!)) start++;
    while (end > start && isAsciiSpace(bytes[end - 1]!)) end--;
    if (start === end) return;
    let hash = FNV_OFFSET;
    for (let i = start; i < end; i++) {
      const byte = bytes[i]!;
      // Anything but printable ASCII (a space or control character inside, non-ASCII, perhaps Unicode
      // whitespace at an end, perhaps invalid UTF-8) takes the string path, which has the exact rules.
      if (byte < 0x21 || byte > 0x7e) {
        // Decoding would turn invalid UTF-8 into U+FFFD and send an ID that is not the one in the file.
        if (!isUtf8(bytes.subarray(start, end))) {
          const at = firstInvalidUtf8(bytes, start, end);
          throw new ClientIdError('invalid UTF-8 in a client ID', at);
        }
        this.addString(bytes.toString('utf8', start, end));
        return;
      }
      hash = Math.imul(hash ^ byte, FNV_PRIME);
    }
    this.insert(bytes, start, end, hash, true, false);
  }

  addAll(raws: Iterable<string>): this {
    for (const raw of raws) this.add(raw);
    return this;
  }

  /** The IDs collected so far, as a store that later additions do not change. */
  result(): CollectedClientIds {
    return { ids: this.current(), duplicates: this.duplicates };
  }

  /**
   * Frees the index that finds repeats (the hash table and hashes: 12 MB at a million IDs) once no more IDs
   * will be added: the stores already made keep working. Where ArrayBuffers can be transferred (Node 22 and
   * later), their memory goes back at once rather than at the next full garbage collection, which a long
   * send may never run while it holds the rest of its memory.
   */
  release(): void {
    for (const array of [this.table, this.hashes]) (array.buffer as ArrayBuffer & { transfer?: (length: number) => ArrayBuffer }).transfer?.(0);
    this.table = new Int32Array(2).fill(-1);
    this.hashes = new Int32Array(1);
    this.released = true;
  }

  /** How many unique IDs are collected so far. */
  get count(): number {
    return this.parts.count;
  }

  /**
   * The IDs collected so far as a store, remade only when more have come since the last call: a plan that
   * grows while the input is read takes each batch from it. Stored bytes never move, so a store stays valid.
   */
  current(): ClientIdStore {
    if (this.snapshot?.length !== this.parts.count) this.snapshot = new ClientIdStore(this.parts);
    return this.snapshot;
  }

  /**
   * Keep `bytes[start, end)` unless an equal ID is already stored. `inPlace` when the bytes already sit in
   * the current page right after the last ID.
   */
  private insert(bytes: Buffer, start: number, end: number, hash: number, ascii: boolean, inPlace: boolean): void {
    if (this.released) throw new Error('no IDs can be added to a released collector');
    const table = this.table;
    const size = table.length;
    let slot = slotOf(hash, size);
    for (let index = table[slot]!; index !== -1; index = table[slot]!) {
      if (this.hashes[index] === hash && this.equals(index, bytes, start, end)) {
        this.duplicates += 1;
        return;
      }
      slot = slot + 1 === size ? 0 : slot + 1;
    }
    const length = end - start;
    if (!inPlace) {
      this.reserve(length);
      const page = this.page;
      const at = this.used;
      // A byte loop for the usual short ID: Buffer#copy is a call into C++, which costs more than the copy.
      if (length <= 64) for (let i = 0; i < length; i++) page[at + i] = bytes[start + i]!;
      else bytes.copy(page, at, start, end);
    }
    this.used += length;
    if (!ascii) this.parts.asciiPages[this.parts.asciiPages.length - 1] = false;
    // Set the slot before append(), which may grow the table (and then re-inserts this ID too).
    table[slot] = this.parts.count;
    this.append(hash);
  }

  private addOdd(id: string): void {
    if (this.released) throw new Error('no IDs can be added to a released collector');
    this.oddIndex ??= new Map();
    if (this.oddIndex.has(id)) {
      this.duplicates += 1;
      return;
    }
    // Zero bytes in the page; the hash table never matches it, as every other ID has at least one byte.
    this.reserve(0);
    let slot = 0;
    while (this.table[slot] !== -1) slot++;
    this.table[slot] = this.parts.count;
    const index = this.append(0);
    this.oddIndex.set(id, index);
    (this.parts.odd ??= new Map()).set(index, id);
  }

  /** Record an ID that ends at `used` in the current page; returns its index. Grows what needs growing. */
  private append(hash: number): number {
    const parts = this.parts;
    const index = parts.count;
    if (index === parts.ends.length) {
      const capacity = this.nextCapacity(index);
      parts.ends = grown(parts.ends, capacity);
      this.hashes = grown(this.hashes, capacity);
    }
    parts.ends[index] = this.used;
    this.hashes[index] = hash;
    parts.count = index + 1;
    if (parts.count * 2 > this.table.length) this.growTable(2 * parts.ends.length);
    return index;
  }

  /**
   * Room for how many IDs, when `count` fill the arrays: twice as many; or, when the input's size is known,
   * as many as the rest of it holds at the rate of new IDs per byte so far (plus a twentieth), but at least
   * half as many again, so a hint that is too small still grows in few steps.
   */
  private nextCapacity(count: number): number {
    if (this.expectedBytes === 0 || this.bytesSeen === 0) return count * 2;
    const rest = Math.max(0, this.expectedBytes - this.bytesSeen);
    const estimate = Math.ceil(count + ((count * rest) / this.bytesSeen) * 1.05);
    return Math.max(estimate, Math.ceil(count * 1.5));
  }

  /** Make room for `bytes` more bytes after the last ID, starting a new page if needed. */
  private reserve(bytes: number): void {
    const parts = this.parts;
    if (parts.pages.length > 0 && this.page.length - this.used >= bytes) return;
    this.page = Buffer.allocUnsafe(Math.max(this.pageBytes, bytes));
    this.used = 0;
    const last = parts.pages.length - 1;
    if (last >= 0 && parts.firstIds[last] === parts.count) {
      // The current page holds no ID yet: replace it rather than leave an empty page behind.
      parts.pages[last] = this.page;
      parts.asciiPages[last] = true;
    } else {
      parts.pages.push(this.page);
      parts.firstIds.push(parts.count);
      parts.asciiPages.push(true);
    }
  }

  private equals(index: number, bytes: Buffer, start: number, end: number): boolean {
    const { pages, firstIds, ends } = this.parts;
    let p = pages.length - 1;
    while (firstIds[p]! > index) p--;
    const from = index === firstIds[p] ? 0 : ends[index - 1]!;
    if (ends[index]! - from !== end - start) return false;
    const page = pages[p]!;
    for (let i = 0; i < end - start; i++) if (page[from + i] !== bytes[start + i]) return false;
    return true;
  }

  private growTable(size: number): void {
    const table = new Int32Array(size).fill(-1);
    const { hashes } = this;
    const { count } = this.parts;
    for (let index = 0; index < count; index++) {
      // An ID with no UTF-8 form has hash 0 (see addOdd): slot 0 onwards, where addOdd looks.
      let slot = slotOf(hashes[index]!, size);
      while (table[slot] !== -1) slot = slot + 1 === size ? 0 : slot + 1;
      table[slot] = index;
    }
    this.table = table;
  }
}

/** FNV-1a over bytes: fast, and good enough spread for IDs that share long prefixes. */
function hashBytes(bytes: Buffer, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash;
}

/** The ASCII characters `String.prototype.trim` removes: tab, LF, VT, FF, CR and space. */
function isAsciiSpace(byte: number): boolean {
  return byte === 0x20 || (byte >= 0x09 && byte <= 0x0d);
}

function grown(array: Int32Array, length: number): Int32Array {
  const bigger = new Int32Array(length);
  bigger.set(array);
  return bigger;
}

/** The table slot of a hash: its share of 2^32 scaled to the table (exact enough; always below `size`). */
function slotOf(hash: number, size: number): number {
  return Math.floor((hash >>> 0) * size * TWO_TO_MINUS_32);
}
