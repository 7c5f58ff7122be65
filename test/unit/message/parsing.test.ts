import { describe, expect, it } from 'vitest';
import { parseDurationMs, parseDurationSeconds } from '../../../src/message/duration.js';
import { firstErrorOffset, JsonSyntaxError, parseJson } from '../../../src/message/parse-json.js';
import { fillPlaceholders } from '../../../src/message/placeholders.js';
import { formatPath } from '../../../src/message/issues.js';
import { nearest } from '../../../src/suggest.js';

describe('durations', () => {
  it.each([
    ['3600', 3600], ['90s', 90], ['15m', 900], ['6h', 21600], ['2d', 172800], ['1w', 604800], ['2W', 1209600], [' 10 s ', 10],
  ])('%s is %d seconds', (text, seconds) => expect(parseDurationSeconds(text)).toBe(seconds));
  it.each(['', 'abc', '-5', '5y', '1.5s5', '0', '500ms'])('%j is not a TTL', (text) => expect(parseDurationSeconds(text)).toBeUndefined());
  it('parses timeouts in milliseconds', () => {
    expect(parseDurationMs('500ms')).toBe(500);
    expect(parseDurationMs('10s')).toBe(10_000);
    expect(parseDurationMs('1.5s')).toBe(1500);
    expect(parseDurationMs('ten')).toBeUndefined();
  });
});

describe('parseJson', () => {
  it('parses valid JSON and drops a byte-order mark', () => {
    expect(parseJson('\ufeff{"a":1}')).toEqual({ a: 1 });
  });
  it.each([
    // A trailing comma is located at the comma, not at the bracket after it.
    ['{\n "a": 1,\n}', 2, 8],
    // A word that is no JSON value is named whole, from its first letter.
    ['{"a": tru}', 1, 7],
    ['{"a":', 1, 6],
    ['[1,]', 1, 3],
    ['{} x', 1, 4],
    ['{"a":\n\n  01}', 3, 4],
  ])('locates the error in %j at line %d, column %d', (text, line, column) => {
    try {
      parseJson(text);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(JsonSyntaxError);
      expect([(error as JsonSyntaxError).line, (error as JsonSyntaxError).column]).toEqual([line, column]);
    }
  });
  it('names the word that is no JSON value', () => {
    expect(() => parseJson('{"a": tru}')).toThrow('unexpected "tru" at line 1, column 7');
  });
  it('takes 64 levels of arrays and objects and refuses 65, at the bracket that opens the 65th', () => {
    // Arrays and objects in turn, so both kinds count; the deepest one is empty and still a level.
    const text = (levels: number) => {
      let t = levels % 2 ? '[]' : '{}';
      for (let level = levels - 1; level >= 1; level--) t = level % 2 ? `[${t}]` : `{"k":${t}}`;
      return t;
    };
    expect(JSON.stringify(parseJson(text(64)))).toBe(text(64));
    expect(() => parseJson(text(65))).toThrow(`nested deeper than 64 levels at line 1, column ${text(65).indexOf('[]') + 1}`);
    expect(() => parseJson(`[${text(64)}, 1]`)).toThrow('nested deeper than 64 levels');
  });
  it('keeps __proto__ an own key', () => {
    const value = parseJson('{"__proto__": {"x": 1}}') as Record<string, unknown>;
    expect(Object.keys(value)).toEqual(['__proto__']);
    expect(({} as Record<string, unknown>).x).toBeUndefined();
  });
  it('agrees with JSON.parse on valid documents', () => {
    for (const text of ['{"a":[1,2,{"b":null}],"c":"\\u00e9\\n","d":-1.5e3}', '[]', '"x"', 'true']) {
      expect(firstErrorOffset(text)).toBe(text.length);
    }
  });
});

describe('placeholders', () => {
  it('fills strings in nested values and leaves keys alone', () => {
    const r = fillPlaceholders({ '{{k}}': ['{{a}}-{{ a }}', 1, { x: '{{b}}' }] }, { a: 'A', b: 'B', k: 'K' });
    expect(r.value).toEqual({ '{{k}}': ['A-A', 1, { x: 'B' }] });
    expect(r.missing).toEqual([]);
  });
  it('reports each missing name once with its first path', () => {
    const r = fillPlaceholders({ n: { t: '{{x}}', d: '{{x}} {{y}}' } }, {});
    expect(r.missing).toEqual([{ name: 'x', path: 'n.t' }, { name: 'y', path: 'n.d' }]);
  });
});

describe('paths and suggestions', () => {
  it('formats JSON paths', () => {
    expect(formatPath(['condition', 'targeting', 'country', 2])).toBe('condition.targeting.country[2]');
    expect(formatPath(['data', 'my key'])).toBe('data["my key"]');
    expect(formatPath([])).toBe('');
  });
  it('suggests near names only', () => {
    expect(nearest('titel', ['title', 'desc'])).toBe('title');
    expect(nearest('time-to-live', ['time_to_live'])).toBe('time_to_live');
    expect(nearest('zzzzzz', ['title', 'desc'])).toBeUndefined();
  });
});
