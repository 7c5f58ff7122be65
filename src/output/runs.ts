// How `pushctl runs` reads: pure formatters from run overviews to text.
import type { OutcomeCounts } from '../client/report.js';
import type { BatchResult } from '../client/send-batches.js';
import type { RunOverview } from '../journal/run-state.js';
import { describeCode } from './delivery.js';

const counts = (c: OutcomeCounts) => `${c.accepted}/${c.rejected}/${c.unknown}/${c.not_sent}`;

/** One line a run, newest first; counts read accepted/rejected/unknown/not sent. */
export function formatRunTable(runs: readonly RunOverview[]): string {
  const rows = [
    ['RUN', 'STARTED', 'APP', 'HOST', 'DRY', 'STATE', 'BATCHES a/r/u/n', 'RECIPIENTS a/r/u/n'],
    ...runs.map((r) => [r.run_id, r.started_at.replace(/\.\d+Z$/, 'Z'), r.app_id, r.host, r.dry_run ? 'yes' : 'no', r.state, counts(r.batches), counts(r.recipients)]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((row) => row[i]!.length)));
  return rows.map((row) => row.map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

export interface RunDetail extends RunOverview {
  message_ids: string[];
  report?: string;
  resend_command?: string;
}

const line = (label: string, c: OutcomeCounts) =>
  `  ${label.padEnd(11)}${c.total}: accepted ${c.accepted}, rejected ${c.rejected}, unknown ${c.unknown}, not sent ${c.not_sent}\n`;

export function formatRunDetail(run: RunDetail, results: readonly BatchResult[]): string {
  let out = `run ${run.run_id} (${run.state}${run.dry_run ? ', dry run' : ''})\n`;
  out += `  started    ${run.started_at}, app ${run.app_id} → ${run.host}\n`;
  out += `  journal    ${run.path}\n`;
  out += line('batches', run.batches) + line('recipients', run.recipients);
  const rejections = new Map<number, string>();
  for (const r of results) if (r.status === 'rejected' && r.code !== undefined) rejections.set(r.code, describeCode(r.code, r.message));
  for (const text of rejections.values()) out += `  rejected   ${text}\n`;
  if (run.message_ids.length > 0) {
    const shown = run.message_ids.slice(0, 10);
    const more = run.message_ids.length - shown.length;
    out += `  message_ids ${shown.join(', ')}${more > 0 ? ` (+${more} more; --json lists all)` : ''}\n`;
  }
  if (run.report) out += `  report     ${run.report}\n`;
  if (run.resend_command) out += `to send the unknown and not-sent recipients again:\n  ${run.resend_command}\n`;
  else out += 'nothing left to send\n';
  return out;
}
