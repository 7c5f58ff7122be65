// What each tool returns as structuredContent: the CLI's --json document of the same command (README,
// "JSON output"), `ok` and `exit_code` first. A failure is the same envelope with `error` (message and
// hint), so every field but those two is optional. Objects stay open: a field the CLI adds later is no
// break for a client that checks results against these schemas.
import '../../message/zod-jitless.js';
import * as z from 'zod/mini';
import { RUN_STATES } from '../../journal/read-run.js';

const finding = z.object({ path: z.string(), rule: z.string(), message: z.string(), fix: z.optional(z.string()) });
const findings = z.optional(z.array(finding));
const counts = z.looseObject({ total: z.int(), accepted: z.int(), rejected: z.int(), in_doubt: z.int(), not_sent: z.int() });
const summary = z.looseObject({ batches: counts, recipients: counts });

const envelope = {
  ok: z.boolean(),
  exit_code: z.int(),
  error: z.optional(z.object({ message: z.string(), hint: z.optional(z.string()) })),
  errors: findings,
  warnings: findings,
  notes: findings,
  /** An answer over the size a client reads: each list or string it cut (docs/behaviour.md#mcp). */
  elided: z.optional(z.array(z.object({ path: z.string(), shown: z.int(), total: z.int() }))),
};

export const validationOutputSchema = z.looseObject({
  ...envelope,
  valid: z.optional(z.boolean()),
  /** The normalised body that would be sent; null when the message is invalid. */
  body: z.optional(z.nullable(z.record(z.string(), z.unknown()))),
  /** A message with variants: each variant's body as sent, by language tag (docs/behaviour.md#variants). */
  variants: z.optional(z.record(z.string(), z.record(z.string(), z.unknown()))),
});

const batch = z.looseObject({ batch: z.int(), status: z.string(), recipients: z.int(), attempts: z.int(), message_id: z.optional(z.string()), code: z.optional(z.int()), hint: z.optional(z.string()) });

/** One target of a run of several (docs/behaviour.md#targets): the row of `pushctl send --profile a,b --json`. */
const targetRow = z.looseObject({
  profile: z.string(),
  app_id: z.string(),
  base_url: z.string(),
  run_id: z.optional(z.string()),
  state: z.enum([...RUN_STATES, 'skipped']),
  exit_code: z.int(),
  skipped: z.boolean(),
  summary,
  message_ids: z.array(z.string()),
  error: z.optional(z.object({ message: z.string(), hint: z.optional(z.string()) })),
});

export const deliveryOutputSchema = z.looseObject({
  ...envelope,
  dry_run: z.optional(z.boolean()),
  /** true when `once` found the run already done and nothing was sent now. */
  skipped: z.optional(z.boolean()),
  /** What the run came to (docs/behaviour.md#run-states); `skipped` when `once` found it done. */
  state: z.optional(z.enum([...RUN_STATES, 'skipped'])),
  once: z.optional(z.string()),
  message_ids: z.optional(z.array(z.string())),
  run_id: z.optional(z.string()),
  journal: z.optional(z.string()),
  summary: z.optional(summary),
  batches: z.optional(z.array(batch)),
  audience: z.optional(z.string()),
  resumed_from: z.optional(z.string()),
  /** What the key's runs came to together: a `once` re-run that skipped or resumed its key's run. */
  run_state: z.optional(z.enum(RUN_STATES)),
  /** A `once` re-run that resumed its key: what this attempt alone sent (the top level counts every run of the key). */
  attempt: z.optional(z.looseObject({ state: z.optional(z.enum(RUN_STATES)), summary, message_ids: z.optional(z.array(z.string())) })),
  resend_command: z.optional(z.string()),
  in_doubt: z.optional(z.int()),
  include_in_doubt_command: z.optional(z.string()),
  /** A profile list: a row per target, the counts above added up. */
  targets: z.optional(z.array(targetRow)),
});

const runOverview = z.looseObject({
  run_id: z.string(),
  path: z.string(),
  started_at: z.string(),
  app_id: z.string(),
  host: z.string(),
  dry_run: z.boolean(),
  state: z.enum(RUN_STATES),
  exit_code: z.nullable(z.int()),
  title: z.string(),
  audience: z.optional(z.string()),
  once: z.optional(z.string()),
  summary,
});

export const runsOutputSchema = z.looseObject({ ...envelope, runs_dir: z.optional(z.string()), runs: z.optional(z.array(runOverview)) });

export const runOutputSchema = z.looseObject({
  ...envelope,
  run: z.optional(
    z.looseObject({
      ...runOverview.shape,
      message_ids: z.array(z.string()),
      resend_command: z.optional(z.string()),
      include_in_doubt_command: z.optional(z.string()),
      in_doubt: z.optional(z.int()),
    }),
  ),
});

const storedMessage = z.looseObject({ app_id: z.string(), message_id: z.string(), received_at: z.string(), dry_run: z.boolean(), delivered: z.boolean(), body: z.record(z.string(), z.unknown()) });

export const inboxOutputSchema = z.looseObject({
  ...envelope,
  base_url: z.optional(z.string()),
  app_id: z.optional(z.string()),
  accepted: z.optional(z.int()),
  kept: z.optional(z.int()),
  messages: z.optional(z.array(storedMessage)),
});

/** message_schema: the message file's JSON Schema, an object a client reads as it is. */
export const schemaOutputSchema = z.looseObject({ ...envelope, schema: z.optional(z.record(z.string(), z.unknown())) });
