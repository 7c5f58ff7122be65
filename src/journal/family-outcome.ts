// What a run family — a run and the resends that continued it (docs/behaviour.md#resend) — delivered as a
// whole: each recipient counted once, under the word of the newest run that sent to it. `runs show`, a
// `--once` re-run that finds its key done, the action and the MCP tools read this one answer. Pure.
import { serviceRefused, summarizeBatches, type DeliverySummary } from '../client/report.js';
import { recipientCount, type BatchResult } from '../client/batch-result.js';
import { summarizeVariants, type VariantSummary } from '../client/variant-summary.js';
import { closedState, type RunState, type RunView } from './read-run.js';
import { messageIds, runAudience } from './run-state.js';

export interface FamilyOutcome {
  /** The family's runs, oldest first. */
  run_ids: string[];
  /** What the family came to: `running` while a run of it sends, the newest run's state when it was stopped, else that of the counts below. */
  state: RunState;
  summary: DeliverySummary;
  /** A message with variants: the counts per language (docs/behaviour.md#variants). */
  variants?: VariantSummary[];
  message_ids: string[];
}

/** The runs a family ends in when the newest was stopped: its own state says more than the counts. */
const UNFINISHED: ReadonlySet<RunState> = new Set(['interrupted', 'killed', 'incomplete', 'running']);

/**
 * Every batch of the family (oldest run first) holding only the recipients whose last word it is: a batch a
 * later run sent again counts no more, or counts only the IDs no later run sent. A run without client IDs
 * (all devices, a condition) is one request per variant lane, and the newest request of each lane is its word.
 * A batch read without its IDs (a run read for what it left: accepted or rejected, never sent again) counts whole.
 */
export function familyResults(members: readonly RunView[]): BatchResult[] {
  if (members.length <= 1) return [...(members[0]?.results ?? [])];
  const byIds = runAudience(members[members.length - 1]!.header) === undefined;
  const spoken = new Set<string>();
  const kept: BatchResult[][] = [];
  for (let m = members.length - 1; m >= 0; m--) {
    const own: BatchResult[] = [];
    const said: string[] = [];
    for (const r of members[m]!.results) {
      if (!byIds) {
        const lane = String(r.variant ?? null);
        if (!spoken.has(lane)) own.push(r);
        said.push(lane);
        continue;
      }
      if (recipientCount(r) > r.clientIds.length) {
        own.push(r);
        continue;
      }
      const ids = r.clientIds.filter((id) => !spoken.has(id));
      if (ids.length === r.clientIds.length) own.push(r);
      else if (ids.length > 0) own.push({ ...r, clientIds: ids });
      if (m > 0) for (const id of r.clientIds) said.push(id);
    }
    for (const word of said) spoken.add(word);
    kept.unshift(own);
  }
  return kept.flat();
}

/** The family's outcome, from its members oldest first (as `familyOf` reads them). */
export function familyOutcome(members: readonly RunView[]): FamilyOutcome {
  const results = familyResults(members);
  const summary = summarizeBatches(results);
  const newest = members[members.length - 1]!;
  // In the message's own order of languages, the base last, as a send prints them: a family's batches come
  // run by run, so first appearance alone would put a language a resend finished after the others.
  const tags = Object.keys(newest.header.variants ?? {});
  const place = (language: string | null) => (language === null ? tags.length + 1 : tags.includes(language) ? tags.indexOf(language) : tags.length);
  const variants = summarizeVariants(results)?.sort((a, b) => place(a.language) - place(b.language));
  return {
    run_ids: members.map((member) => member.header.run_id),
    state: members.some((member) => member.state === 'running') ? 'running' : members.length === 1 || UNFINISHED.has(newest.state) ? newest.state : closedState(summary, false, serviceRefused(results)),
    summary,
    ...(variants ? { variants } : {}),
    message_ids: messageIds(results),
  };
}
