// How the advice to finish a run reads: the command for what was certainly not sent, and apart from it the
// recipients in doubt with the flag that includes them (docs/behaviour.md#resend).

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
}

/** `n` of the advice's unit in words: `3 recipients`, or `the message to all devices`. */
export const adviceCount = (advice: Pick<ResendAdvice, 'unit'>, n: number): string =>
  advice.unit === 'recipients' ? `${n} recipient${n === 1 ? '' : 's'}` : `the message to ${advice.unit}`;

/** The advice in lines, for people. */
export function formatResendAdvice(advice: ResendAdvice): string {
  const lines: string[] = [];
  const what = (n: number) => adviceCount(advice, n);
  // A message to all devices or by condition is one message: "to send it", not "those".
  const exactly = advice.unit === 'recipients' ? 'to send to exactly those:' : 'to send it:';
  if (advice.command) lines.push(`${what(advice.notSent)} not sent; ${exactly}`, `  ${advice.command}`);
  if (advice.includeInDoubtCommand) {
    lines.push(
      `${what(advice.inDoubt)} in doubt (the service may already have delivered${advice.unit === 'recipients' ? ' to them' : ''}); to include ${advice.inDoubt === 1 || advice.unit !== 'recipients' ? 'it' : 'them'}, at the risk of sending twice:`,
      `  ${advice.includeInDoubtCommand}`,
    );
  }
  return `${lines.join('\n')}\n`;
}

