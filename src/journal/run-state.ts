// What a journal says about its run as a whole, as `pushctl runs` and `runs show` print it. Pure.
import type { DeliverySummary } from '../client/report.js';
import type { BatchResult } from '../client/send-batches.js';
import { audienceWords, variantsAudienceWords } from '../message/audience.js';
import type { HeaderRecord } from './records.js';
import type { RunHead, RunState } from './read-run.js';

export type { RunState };

export interface RunOverview {
  run_id: string;
  path: string;
  started_at: string;
  app_id: string;
  host: string;
  dry_run: boolean;
  state: RunState;
  exit_code: number | null;
  /** The message's title, or its data keys for a data message, so runs can be told apart. */
  title: string;
  /** "all devices" or "condition: …" for a run with no client IDs; absent for a list of client IDs. */
  audience?: string;
  /** Why the journal holds less than its plan (state `incomplete`). */
  incomplete?: string;
  once?: string;
  /** The run this one resent. */
  parent?: string;
  /** A resend: what the runs it resent left in doubt and it did not send again (docs/behaviour.md#runs). */
  in_doubt_before?: number;
  /** Runs that resent this one (the list names those it shows): what is left is theirs to say. */
  resent_by?: string[];
  /** A `--once` run sent afresh in place of a run of its key cut short while planning: that run. */
  replaces?: string;
  /** Cut short while planning, nothing sent: the `--once` run sent afresh in its place, whose recipients these are. */
  replaced_by?: string;
  /** A target of a run of several (docs/behaviour.md#targets): the family's id, and this target's profile. */
  targets?: string;
  profile?: string;
  /** Its batches and recipients by outcome, as `send --json` counts them. */
  summary: DeliverySummary;
}

/** A run's overview, from what its journal says. */
export function overview(view: RunHead): RunOverview {
  const { header, end } = view;
  const audience = runAudience(header);
  return {
    run_id: header.run_id,
    path: view.path,
    started_at: header.started_at,
    app_id: header.app_id,
    host: header.host,
    dry_run: header.dry_run,
    state: view.state,
    exit_code: end?.exit_code ?? null,
    title: messageTitle(header.message),
    ...(audience ? { audience } : {}),
    ...(view.incomplete ? { incomplete: view.incomplete.reason } : {}),
    ...(header.once !== undefined ? { once: header.once } : {}),
    ...(header.parent !== undefined ? { parent: header.parent } : {}),
    ...(header.replaces !== undefined ? { replaces: header.replaces } : {}),
    // A journal is data: only a count is taken as one.
    ...(Number.isSafeInteger(header.in_doubt_before) && header.in_doubt_before! > 0 ? { in_doubt_before: header.in_doubt_before } : {}),
    ...(typeof header.targets === 'string' ? { targets: header.targets, ...(typeof header.profile === 'string' ? { profile: header.profile } : {}) } : {}),
    summary: view.summary,
  };
}

/** Who a run without client IDs went to, in words: with variants, every language its requests named. */
export function runAudience(header: HeaderRecord): string | undefined {
  return header.variants ? variantsAudienceWords(header.message, Object.values(header.variants)) : audienceWords(header.message);
}

/** The title of a notification, or `data: key1, key2` for a data message. */
export function messageTitle(message: object): string {
  const m = message as { notification?: { title?: unknown; desc?: unknown }; data?: Record<string, unknown> };
  const title = m.notification?.title ?? m.notification?.desc;
  if (typeof title === 'string' && title !== '') return title;
  const keys = Object.keys(m.data ?? {});
  return keys.length > 0 ? `data: ${keys.join(', ')}` : '';
}

/** Each accepted batch's message_id, once each, in batch order. */
export function messageIds(results: readonly BatchResult[]): string[] {
  return [...new Set(results.flatMap((r) => (r.status === 'accepted' && r.messageId ? [r.messageId] : [])))];
}
