import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateMessage } from '../../../src/message/validate.js';

// Messages that look like the real thing, with values drawn from both valid and invalid ranges,
// so the properties exercise the rules rather than only the "not an object" branch.
const messageLike = fc.record(
  {
    type: fc.oneof(fc.constantFrom(1, 2), fc.jsonValue()),
    time_to_live: fc.oneof(fc.integer({ min: -5, max: 4_000_000 }), fc.jsonValue()),
    condition: fc.oneof(
      fc.record({
        type: fc.oneof(fc.constantFrom(0, 1, 2), fc.jsonValue()),
        client_ids: fc.array(fc.oneof(fc.string(), fc.jsonValue()), { maxLength: 5 }),
        targeting: fc.record(
          { country: fc.array(fc.oneof(fc.constantFrom('US', 'gb', 'UK', 'XX'), fc.string())), os_version: fc.array(fc.oneof(fc.nat(), fc.string())) },
          { requiredKeys: [] },
        ),
      }, { requiredKeys: [] }),
      fc.jsonValue(),
    ),
    notification: fc.record({ title: fc.string(), notification_type: fc.constantFrom(1, 2, 3), open_type: fc.constantFrom('1', '2', 1, 2, 'x'), open_content: fc.string() }, { requiredKeys: [] }),
    data: fc.dictionary(fc.string(), fc.oneof(fc.string(), fc.integer(), fc.boolean(), fc.jsonValue())),
    extra: fc.jsonValue(),
  },
  { requiredKeys: [] },
);

describe('validateMessage properties', () => {
  it('never throws, and every rejection carries a path, a rule and a message', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.anything(), messageLike), fc.boolean(), (input, strict) => {
        const result = validateMessage(input, { strict });
        expect(result.body === undefined).toBe(result.errors.length > 0);
        for (const issue of [...result.errors, ...result.warnings, ...result.notes]) {
          expect(typeof issue.path).toBe('string');
          expect(issue.rule.length).toBeGreaterThan(0);
          expect(issue.message.length).toBeGreaterThan(0);
        }
        // Only the root-level "not an object" error may have an empty path.
        for (const issue of result.errors) if (issue.path === '') expect(issue.message).toMatch(/JSON object/);
      }),
      { numRuns: 1500 },
    );
  });

  it('is idempotent: a normalised body validates to itself with no further notes', () => {
    fc.assert(
      fc.property(messageLike, (input) => {
        const first = validateMessage(input);
        if (!first.body) return;
        const second = validateMessage(first.body);
        expect(second.body).toEqual(first.body);
        expect(second.notes).toEqual([]);
      }),
      { numRuns: 1500 },
    );
  });
});
