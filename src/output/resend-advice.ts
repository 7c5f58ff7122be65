// How the advice to finish a run reads: the command for what was certainly not sent, and apart from it the
// recipients in doubt with the flag that includes them (docs/behaviour.md#resend).
import { counted } from '../counted.js';

export interface ResendAdvice {
  /** The command that sends the not-sent recipients; absent when none are left. */
  command?: string;
  /** The same with `--include-in-doubt`; absent when no recipient is in doubt. */
  includeInDoubtCommand?: string;
  /** Recipients (or, for an audience without client IDs, batches) certainly not sent. */
  notSent: number;
  /** Recipients that may or may not have the message. */
  inDoubt: number;
  /** "recipients", or the audience in words for a run addressed to all devices or by condition. */
  unit: string;
  /** For an audience: the requests its message takes (one per language variant), when more than one. */
  requests?: number;
  /** No journal and no report were kept (`--no-journal`): no command can name what is left, and it is said. */
  untracked?: boolean;
  /** A dry run's: the service delivers nothing of it, so what is in doubt is only whether it was checked. */
  dryRun?: boolean;
}

/**
 * What "in doubt" means for the run, in words: a send's request may have been delivered, so including it risks
 * delivering twice; a dry run's was maybe checked and never delivered, so checking it again risks nothing.
 */
export function inDoubtWords(advice: Pick<ResendAdvice, 'dryRun'>): { maybe: string; risk: string } {
  return advice.dryRun
    ? { maybe: 'the service may already have checked the message; a dry run delivers nothing', risk: 'which checks it again' }
    : { maybe: 'the service may already have delivered', risk: 'at the risk of sending twice' };
}

/**
 * `n` of the advice's unit in words: `3 recipients`, `the message to all devices`, or, for a message to an
 * audience in several requests (its language variants), `1 of the 3 requests to ...`: never "the message" for
 * a part of it.
 */
export const adviceCount = (advice: Pick<ResendAdvice, 'unit' | 'requests'>, n: number): string => {
  if (advice.unit === 'recipients') return counted(n, 'recipient');
  return advice.requests !== undefined && advice.requests > 1 ? `${n} of the ${advice.requests} requests to ${advice.unit}` : `the message to ${advice.unit}`;
};

/** "it" or "them": what the count stands for, once said. */
const pronoun = (advice: Pick<ResendAdvice, 'unit' | 'requests'>, n: number) => (n === 1 || (advice.unit !== 'recipients' && (advice.requests ?? 1) <= 1) ? 'it' : 'them');

/** The advice in lines, for people. */
export function formatResendAdvice(advice: ResendAdvice): string {
  const lines: string[] = [];
  const what = (n: number) => adviceCount(advice, n);
  // A message to all devices or by condition is one message: "to send it", not "those".
  if (advice.untracked) return untrackedAdvice(advice);
  const exactly = advice.unit === 'recipients' ? 'to send to exactly those:' : `to send ${pronoun(advice, advice.notSent)}:`;
  if (advice.command) lines.push(`${what(advice.notSent)} not sent; ${exactly}`, `  ${advice.command}`);
  if (advice.includeInDoubtCommand) {
    const words = inDoubtWords(advice);
    lines.push(
      `${what(advice.inDoubt)} in doubt (${words.maybe}${advice.unit === 'recipients' && !advice.dryRun ? ' to them' : ''}); to include ${pronoun(advice, advice.inDoubt)}, ${words.risk}:`,
      `  ${advice.includeInDoubtCommand}`,
    );
  }
  return `${lines.join('\n')}\n`;
}


/** What is left of a run that kept no journal and no report, and how to keep it next time. */
function untrackedAdvice(advice: ResendAdvice): string {
  const left = [advice.notSent > 0 ? `${adviceCount(advice, advice.notSent)} not sent` : '', advice.inDoubt > 0 ? `${adviceCount(advice, advice.inDoubt)} in doubt` : ''].filter((part) => part !== '');
  const them = pronoun(advice, advice.notSent + advice.inDoubt);
  // A message to an audience is the command itself; a list of client IDs sent again would reach everyone again.
  const next = advice.unit === 'recipients' ? 'add --report <path> to keep that list, or drop --no-journal' : `the same command sends it again, to ${advice.unit}${advice.inDoubt > 0 ? ', at the risk of sending twice' : ''}`;
  return `${left.join(', ')}: with --no-journal and no --report, nothing lists ${them} to send again\nhint: ${next}\n`;
}
