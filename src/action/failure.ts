// Why a send failed, for the step's error annotation: the first batch that was not accepted, with the
// service's code, its meaning and the next step — what the CLI prints under its verdict, in one line.
import { describeStatus } from '../client/codes.js';
import type { BatchResult } from '../client/send-batches.js';
import { describeCode } from '../output/delivery.js';

export function failureOf(results: readonly BatchResult[]): { message: string; hint?: string } | undefined {
  const failed = results.find((r) => r.status !== 'accepted');
  if (!failed) return undefined;
  const others = results.filter((r) => r.status !== 'accepted').length - 1;
  const more = others > 0 ? ` (and ${others} more batch${others === 1 ? '' : 'es'} not accepted)` : '';
  if (failed.code !== undefined) {
    const reason = failed.status === 'not_sent' && failed.reason ? `; ${failed.reason}` : '';
    return { message: `${describeCode(failed.code, failed.message)}${reason}${more}`, hint: describeStatus(failed.code).hint };
  }
  return { message: `${failed.reason ?? failed.status}${more}` };
}
