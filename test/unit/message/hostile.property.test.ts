// The validator's fuzz test, fed hostile input (issue 11): deep nesting, invalid UTF-8 and __proto__ keys,
// through the same path a message file takes (bytes → strict UTF-8 → JSON → placeholders → rules).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CliError } from '../../../src/errors.js';
import { decodeUtf8 } from '../../../src/input/decode-utf8.js';
import { assembleMessage } from '../../../src/message/assemble.js';
import { validateAssembled } from '../../../src/message/validate-assembled.js';
import { validateMessage } from '../../../src/message/validate.js';

const valid = { type: 1, time_to_live: 60, condition: { type: 0 }, notification: { title: 'Hi' } };
/** A value nested `depth` levels deep, in arrays or objects. */
const nested = fc.tuple(fc.integer({ min: 1, max: 5000 }), fc.boolean()).map(([depth, arrays]) => (arrays ? `${'['.repeat(depth)}${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`));
/** JSON text of a message with hostile parts spliced in. */
const hostileText = fc.oneof(
  nested.map((deep) => JSON.stringify(valid).replace(/}$/, `,"data":{"k":${deep}}}`)),
  nested,
  fc.dictionary(fc.oneof(fc.constant('__proto__'), fc.string()), fc.oneof(fc.string(), fc.integer(), fc.jsonValue())).map((data) => JSON.stringify(valid).replace(/}$/, `,"data":${JSON.stringify(data)}}`)),
  fc.constantFrom('{"__proto__":{"type":2}}', '{"type":1,"__proto__":null}', '{"data":{"__proto__":{"polluted":"yes"}}}'),
);
/** Bytes: the text, possibly with invalid UTF-8 spliced in at any place. */
const hostileBytes = fc.tuple(hostileText, fc.uint8Array({ maxLength: 4 }), fc.nat()).map(([text, junk, at]) => {
  const bytes = Buffer.from(text);
  const cut = at % (bytes.length + 1);
  return Buffer.concat([bytes.subarray(0, cut), Buffer.from(junk), bytes.subarray(cut)]);
});

describe('hostile message files (property)', () => {
  it('never crash: either a result, or an invalid-message error with a message', () => {
    fc.assert(
      fc.property(hostileBytes, fc.boolean(), (bytes, strict) => {
        try {
          const text = decodeUtf8(bytes, 'message file m.json', '-f/--file');
          const result = validateAssembled(assembleMessage({ flags: {}, file: { name: 'm.json', text } }), { strict });
          expect(result.body === undefined).toBe(result.errors.length > 0);
        } catch (error) {
          expect(error).toBeInstanceOf(CliError);
          expect((error as CliError).exitCode).toBe(3);
          expect((error as CliError).message).not.toMatch(/call stack|Maximum/);
        }
        // Nothing reached the prototype of plain objects.
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.getPrototypeOf({})).toBe(Object.prototype);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps every __proto__ data key as an ordinary key', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 50 }), fc.dictionary(fc.string({ maxLength: 8 }), fc.string({ maxLength: 8 }), { maxKeys: 5 }), (value, rest) => {
        const data = JSON.parse(`{"__proto__":${JSON.stringify(value)}${Object.keys(rest).length ? `,${JSON.stringify(rest).slice(1, -1)}` : '}'}`.replace(/}?$/, '}')) as Record<string, string>;
        const result = validateMessage({ ...valid, data });
        expect(result.errors).toEqual([]);
        expect(Object.hasOwn(result.body!.data!, '__proto__')).toBe(true);
        expect(Object.keys(result.body!.data!).sort()).toEqual(Object.keys(data).sort());
      }),
      { numRuns: 300 },
    );
  });
});
