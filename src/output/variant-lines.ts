// Counts per variant language (docs/behaviour.md#variants), for the send summary and `runs show`: one line
// per variant, the base message last under "base".
import type { VariantCounts, VariantSummary } from '../client/variant-summary.js';
import type { Style } from './style.js';
import { counted } from '../counted.js';

/** `3 accepted, 1 in doubt` — the outcomes that happened, in the order the summary uses. */
function outcomes(counts: VariantCounts): string {
  const parts = [
    counts.accepted && `${counts.accepted} accepted`,
    counts.rejected && `${counts.rejected} rejected`,
    counts.in_doubt && `${counts.in_doubt} in doubt`,
    counts.not_sent && `${counts.not_sent} not sent`,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(', ') : 'nothing';
}

/** The block of lines, or '' for a run without variants. */
export function formatVariants(variants: readonly VariantSummary[] | undefined, style: Style): string {
  if (!variants || variants.length === 0) return '';
  const width = Math.max(...variants.map((v) => v.label.length));
  const lines = variants.map((v) => {
    // An audience has no client IDs to count: its requests are what it is made of.
    const counts = v.recipients.total > 0 ? v.recipients : v.requests;
    const size = v.recipients.total > 0 ? counted(v.recipients.total, 'recipient') : counted(v.requests.total, 'request');
    return `  ${style.bold(v.label.padEnd(width))}  ${size}: ${outcomes(counts)}\n`;
  });
  return `by language:\n${lines.join('')}`;
}
