// Hostile message input (issue 11, "Input"): __proto__ keys, deep nesting, and the notification rules.
import { describe, expect, it } from 'vitest';
import { assembleMessage } from '../../../src/message/assemble.js';
import { validateMessage } from '../../../src/message/validate.js';
import { validateAssembled } from '../../../src/message/validate-assembled.js';

const base = (extra: Record<string, unknown> = {}) => ({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' }, ...extra });

describe('__proto__ is an ordinary key', () => {
  it('-d __proto__=x is kept in data', () => {
    const assembled = assembleMessage({ flags: { all: true, title: 'Hi', data: ['__proto__=x', 'a=b'] } });
    const { body, errors } = validateAssembled(assembled);
    expect(errors).toEqual([]);
    expect(JSON.stringify(body?.data)).toBe('{"__proto__":"x","a":"b"}');
  });

  it('a __proto__ key in --data-file and in the message file data is kept', () => {
    const assembled = assembleMessage({
      flags: {},
      file: { name: 'm.json', text: JSON.stringify(base()).replace(/}$/, ',"data":{"__proto__":"file","k":1}}') },
      dataFile: { name: 'd.json', text: '{"__proto__":"data-file"}' },
    });
    const { body, errors, notes } = validateAssembled(assembled);
    expect(errors).toEqual([]);
    expect(JSON.stringify(body?.data)).toBe('{"__proto__":"data-file","k":"1"}');
    expect(notes.map((n) => n.path)).toContain('data.k');
  });

  it('a __proto__ data value is checked like any other', () => {
    const r = validateMessage(JSON.parse('{"type":1,"time_to_live":60,"condition":{"type":0},"notification":{"title":"t"},"data":{"__proto__":{"x":"y"}}}'));
    expect(r.errors).toEqual([expect.objectContaining({ path: 'data.__proto__' })]);
  });

  it('counts a __proto__ data entry towards the 2 KB limit', () => {
    const r = validateMessage(JSON.parse(`{"type":2,"time_to_live":60,"condition":{"type":0},"data":{"__proto__":"${'x'.repeat(2040)}"}}`));
    expect(r.errors).toEqual([expect.objectContaining({ path: 'data', rule: 'data-size' })]);
  });

  it('a top-level or notification __proto__ is an unknown field, not silently dropped', () => {
    const r = validateMessage(JSON.parse('{"type":1,"time_to_live":60,"condition":{"type":0},"notification":{"title":"t","__proto__":"x"},"__proto__":{"type":2}}'));
    expect(r.errors.map((e) => e.path).sort()).toEqual(['__proto__', 'notification.__proto__']);
  });
});

describe('deep nesting', () => {
  const deep = (levels: number) => `{"type":1,"time_to_live":60,"condition":{"type":0},"notification":{"title":"x"},"data":{"a":${'['.repeat(levels)}${']'.repeat(levels)}}}`;

  it.each([3000, 100_000])('%i levels in a message file is an invalid message naming the limit, not a crash', (levels) => {
    expect(() => assembleMessage({ flags: {}, file: { name: 'deep.json', text: deep(levels) } })).toThrow(
      expect.objectContaining({ exitCode: 3, message: expect.stringMatching(/deep\.json is not valid JSON: nested deeper than 64 levels at line 1, column \d+/) }),
    );
  });

  it('in a data file too', () => {
    expect(() => assembleMessage({ flags: { all: true, title: 'x' }, dataFile: { name: 'd.json', text: `${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}` } })).toThrow(
      expect.objectContaining({ exitCode: 3, message: expect.stringContaining('nested deeper than 64 levels') }),
    );
  });

  it('brackets inside strings do not count', () => {
    const text = JSON.stringify({ type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: '['.repeat(500) + '"\\' } });
    expect(validateAssembled(assembleMessage({ flags: {}, file: { name: 'm.json', text } })).errors).toEqual([]);
  });
});

describe('time_to_live range', () => {
  it('past the int maximum is an error naming the range, in the schema and in the JSON Schema', async () => {
    const { messageJsonSchema } = await import('../../../src/message/json-schema.js');
    const r = validateMessage(base({ time_to_live: 2_147_483_648 }));
    expect(r.errors).toEqual([expect.objectContaining({ path: 'time_to_live', rule: 'ttl', message: expect.stringContaining('use 1 to 2147483647 seconds') })]);
    const huge = validateMessage(JSON.parse(JSON.stringify(base()).replace("\"time_to_live\":60", "\"time_to_live\":9007199254740993")));
    expect(huge.errors).toEqual([expect.objectContaining({ path: 'time_to_live', rule: 'ttl', message: expect.stringContaining('use 1 to 2147483647 seconds') })]);
    expect((messageJsonSchema().properties as Record<string, { maximum?: number }>).time_to_live!.maximum).toBe(2_147_483_647);
  });

  it('--ttl past it is a usage error naming the range', () => {
    expect(() => assembleMessage({ flags: { all: true, title: 'x', ttl: '9007199254740993' } })).toThrow(expect.objectContaining({ exitCode: 2, hint: expect.stringContaining('1 to 2147483647 seconds') }));
    expect(() => assembleMessage({ flags: { all: true, title: 'x', ttl: '24856d' } })).toThrow(expect.objectContaining({ exitCode: 2 }));
  });
});

describe('a file that is not valid JSON', () => {
  // docs/behaviour.md#exit-codes: every error is followed by a hint with the next step, not only the
  // mistakes json-mistake.ts recognises (a trailing comma, a comment...).
  const broken = { deep: `{"a":${'['.repeat(100)}${']'.repeat(100)}}`, truncated: '{"type": 1,', empty: '\n', stray: '{"type": 1} x' };

  it.each(Object.entries(broken))('%s, as a message file or a data file, names the position and what to check', (_, text) => {
    for (const name of ['m.json', '-']) {
      expect(() => assembleMessage({ flags: {}, file: { name, text } })).toThrow(expect.objectContaining({ exitCode: 3, hint: expect.stringMatching(/line \d+, column \d+.*-f/) }));
      expect(() => assembleMessage({ flags: { all: true, title: 'x' }, dataFile: { name, text } })).toThrow(
        expect.objectContaining({ exitCode: 3, hint: expect.stringMatching(/line \d+, column \d+.*--data-file/) }),
      );
    }
  });
});

describe('a number too large for a double', () => {
  it('is named as such, never as "the number null" (JSON.stringify of Infinity)', () => {
    const r = validateMessage(JSON.parse('{"type":1,"time_to_live":1e400,"condition":{"type":0},"notification":{"title":"t"}}'));
    expect(r.errors).toEqual([expect.objectContaining({ path: 'time_to_live' })]);
    expect(r.errors[0]!.message).not.toContain('null');
    expect(r.errors[0]!.message).toContain('too large');
  });
});
