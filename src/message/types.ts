// The shapes of a valid message, written out so the published type declarations need no zod. They are the
// schema's (src/message/schema.ts) and cannot drift from it: test/unit/message/types.test.ts fails to
// compile unless each equals the z.infer of its schema.

/** The request body of `POST /v1/message/push/{AppID}` after validation and normalisation. */
export interface PushMessage {
  dry_run?: boolean;
  type: 1 | 2;
  time_to_live: number;
  condition: Condition;
  notification?: Notification;
  data?: Record<string, string>;
}

export interface Condition {
  type: 0 | 1 | 2;
  client_ids?: string[];
  targeting?: Targeting;
}

export interface Targeting {
  country?: string[];
  language?: string[];
  brand?: string[];
  model?: string[];
  os_version?: string[];
  app_version?: string[];
}

export interface Notification {
  notification_type?: 1 | 3;
  title?: string;
  desc?: string;
  icon?: string;
  small_icon?: string;
  small_icon_color?: string;
  open_type?: '1' | '2';
  open_content?: string;
  button_text?: string;
}

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
