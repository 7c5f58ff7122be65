// The message types (src/message/types.ts) are written out for the published declarations; here the compiler
// checks that each is exactly what its schema gives, so they cannot drift apart (`npm run typecheck`).
import { describe, expect, it } from 'vitest';
import type * as z from 'zod/mini';
import type { conditionSchema, notificationSchema, pushMessageSchema, targetingSchema } from '../../../src/message/schema.js';
import type { Condition, Notification, PushMessage, Targeting } from '../../../src/message/types.js';

/** true exactly when A and B are the same type (each assignable to the other, optional fields included). */
type Same<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;

const checks: Record<string, true> = {
  PushMessage: true satisfies Same<PushMessage, z.infer<typeof pushMessageSchema>>,
  Condition: true satisfies Same<Condition, z.infer<typeof conditionSchema>>,
  Targeting: true satisfies Same<Targeting, z.infer<typeof targetingSchema>>,
  Notification: true satisfies Same<Notification, z.infer<typeof notificationSchema>>,
};

describe('the message types', () => {
  it('are the schema types (checked when this file compiles)', () => {
    expect(Object.keys(checks)).toEqual(['PushMessage', 'Condition', 'Targeting', 'Notification']);
  });
});
