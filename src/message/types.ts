import type * as z from 'zod/mini';
import type { conditionSchema, notificationSchema, pushMessageSchema, targetingSchema } from './schema.js';

// The shapes of a message are the schema's (src/message/schema.ts): written once, as rules, and read here.

/** The request body of `POST /v1/message/push/{AppID}` after validation and normalisation. */
export type PushMessage = z.infer<typeof pushMessageSchema>;
export type Condition = z.infer<typeof conditionSchema>;
export type Targeting = z.infer<typeof targetingSchema>;
export type Notification = z.infer<typeof notificationSchema>;

/** One finding about a message: where (a JSON path such as `condition.targeting.country[2]`), which rule, and a fix. */
export interface MessageIssue {
  path: string;
  rule: string;
  message: string;
  fix?: string;
}

export interface ValidationResult {
  /** The normalised body; present only when there are no errors. */
  body?: PushMessage;
  errors: MessageIssue[];
  warnings: MessageIssue[];
  /** Normalisations that were applied (upper-casing, string conversion, de-duplication...). */
  notes: MessageIssue[];
}

export interface ValidateOptions {
  /** Turn every warning into an error. */
  strict?: boolean;
}
