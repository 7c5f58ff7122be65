// The shapes of a valid message are the schema's (src/message/schema.ts), derived, never written again. The
// published declarations must not need zod: the build writes PushMessage out as the plain object type the
// compiler finds here (scripts/expand-message-types.mjs), and the package test checks the two are the same.
import type * as z from 'zod/mini';
import type { pushMessageSchema } from './schema.js';

/** The request body of `POST /v1/message/push/{AppID}` after validation and normalisation. */
export type PushMessage = z.infer<typeof pushMessageSchema>;
export type Condition = PushMessage['condition'];
export type Targeting = NonNullable<Condition['targeting']>;
export type Notification = NonNullable<PushMessage['notification']>;

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
  /**
   * Judge the body as the service receives it, converting nothing: the interface document leaves the
   * conversions (string data values, upper-case brands, ...) to the sender, so the emulator refuses a body
   * that needs one, as the service does (docs/behaviour.md#emulator).
   */
  asReceived?: boolean;
}

/** A named audience of a config file (`--to`): what an error about its recipients points the user to. */
export interface NamedAudience {
  name: string;
  file: string;
  /** The fields of the body it set (`condition.targeting.country`): a finding there is fixed in the audience. */
  fields?: string[];
}
