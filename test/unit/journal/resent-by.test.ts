// Which runs sent again what a run left: every later resend of its family, whichever run of it that resend named.
import { describe, expect, it } from 'vitest';
import { resentBy } from '../../../src/journal/resent-by.js';

const run = (run_id: string, started_at: string, parent?: string) => ({ run_id, started_at, ...(parent !== undefined ? { parent } : {}) });

describe('resentBy', () => {
  it('a resend refused, then the run resent again: the refused one is resent by the later one, the last by none', () => {
    const runs = [run('c', '2026-01-01T00:00:03Z', 'a'), run('b', '2026-01-01T00:00:02Z', 'a'), run('a', '2026-01-01T00:00:01Z')];
    expect(resentBy(runs)).toEqual(new Map([['a', ['b', 'c']], ['b', ['c']]]));
  });

  it('a chain of resends, its first run cut off the list by --limit, is still one family', () => {
    const runs = [run('d', '2026-01-01T00:00:04Z', 'c'), run('c', '2026-01-01T00:00:03Z', 'b'), run('b', '2026-01-01T00:00:02Z', 'a')];
    expect(resentBy(runs)).toEqual(new Map([['b', ['c', 'd']], ['c', ['d']]]));
  });

  it('another family, or an unrelated later run, resends nothing of it', () => {
    const runs = [run('y', '2026-01-01T00:00:04Z', 'x'), run('x', '2026-01-01T00:00:03Z'), run('b', '2026-01-01T00:00:02Z', 'a'), run('a', '2026-01-01T00:00:01Z')];
    expect(resentBy(runs)).toEqual(new Map([['a', ['b']], ['x', ['y']]]));
  });
});
