// What each variant of a message came to (docs/behaviour.md#variants): the summary, `runs show` and `--json`
// count per variant language, the base message under the label "base".
import { recipientCount, type BatchResult } from './batch-result.js';

/** Counts by outcome, in this round's words ("in doubt": sent, no answer). */
export interface VariantCounts {
  total: number;
  accepted: number;
  rejected: number;
  in_doubt: number;
  not_sent: number;
}

export interface VariantSummary {
  /** The variant's language tag; null for the base message. */
  language: string | null;
  /** How people read it: the tag, or "base" (every other recipient or listed language). */
  label: string;
  /** Requests (batches) of this variant; for condition targeting, the only count there is. */
  requests: VariantCounts;
  /** Client IDs of this variant (0 for condition targeting). */
  recipients: VariantCounts;
}

export const BASE_LABEL = 'base';

const empty = (): VariantCounts => ({ total: 0, accepted: 0, rejected: 0, in_doubt: 0, not_sent: 0 });

const KEY: Record<BatchResult['status'], keyof VariantCounts> = { accepted: 'accepted', rejected: 'rejected', in_doubt: 'in_doubt', not_sent: 'not_sent' };

/** Per variant, in the order they first appear (the base last); undefined for a run without variants. */
export function summarizeVariants(results: readonly BatchResult[]): VariantSummary[] | undefined {
  if (!results.some((r) => r.variant !== undefined)) return undefined;
  const byLanguage = new Map<string | null, VariantSummary>();
  for (const result of results) {
    const language = result.variant ?? null;
    let summary = byLanguage.get(language);
    if (!summary) byLanguage.set(language, (summary = { language, label: language ?? BASE_LABEL, requests: empty(), recipients: empty() }));
    const key = KEY[result.status];
    summary.requests.total += 1;
    summary.requests[key] += 1;
    const count = recipientCount(result);
    summary.recipients.total += count;
    summary.recipients[key] += count;
  }
  const base = byLanguage.get(null);
  byLanguage.delete(null);
  return [...byLanguage.values(), ...(base ? [base] : [])];
}
