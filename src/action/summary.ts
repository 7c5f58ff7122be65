// The action's job summary and step outputs, from the document `pushctl send --json` prints. Pure.
import { markdownTable, outputEntry } from '../output/workflow-commands.js';

/** The parts of the send/dry-run --json document the action reads. */
export interface SendDocument {
  ok?: boolean;
  dry_run?: boolean;
  exit_code?: number;
  message_ids?: string[];
  summary?: { recipients?: Record<string, number>; batches?: Record<string, number> };
  report?: string;
  error?: { message?: string; hint?: string };
  errors?: { path: string; message: string }[];
}

/** SPEC section 2: what each exit status means, for the step's failure message. */
export const EXIT_MEANINGS: Record<number, string> = {
  0: 'success: every batch accepted',
  1: 'unexpected internal error in pushctl',
  2: 'usage error',
  3: 'the message is invalid; nothing was sent',
  4: 'the service rejected the request',
  5: 'network failure, timeout, or an unreadable response',
  6: 'configuration or credentials missing or unusable',
  7: 'a batched send partly failed: some batches accepted, some not',
  130: 'interrupted before anything was sent',
};

const OUTCOMES = ['accepted', 'rejected', 'unknown', 'not_sent'] as const;

export function actionOutputs(doc: SendDocument, exitCode: number, delimiter?: string): string {
  const recipients = doc.summary?.recipients ?? {};
  return [
    outputEntry('message-ids', JSON.stringify(doc.message_ids ?? []), delimiter),
    outputEntry('exit-code', String(exitCode), delimiter),
    ...OUTCOMES.map((o) => outputEntry(o.replace('_', '-'), String(recipients[o] ?? 0), delimiter)),
    outputEntry('report', doc.report ?? '', delimiter),
  ].join('');
}

export function jobSummary(doc: SendDocument, exitCode: number, resendLine: string | undefined): string {
  const verb = doc.dry_run ? 'dry run' : 'send';
  const lines = [`## pushctl ${verb}: ${exitCode === 0 ? 'succeeded' : `failed (exit ${exitCode})`}\n\n`];
  if (exitCode !== 0) lines.push(`${EXIT_MEANINGS[exitCode] ?? 'unknown exit status'}${doc.error?.message ? `: ${doc.error.message}` : ''}\n\n`);
  if (doc.summary) {
    const { batches = {}, recipients = {} } = doc.summary;
    lines.push(markdownTable(['outcome', 'batches', 'recipients'], OUTCOMES.map((o) => [o.replace('_', ' '), batches[o] ?? 0, recipients[o] ?? 0])), '\n');
  }
  if (doc.errors?.length) lines.push(markdownTable(['field', 'problem'], doc.errors.map((e) => [`\`${e.path || '(message)'}\``, e.message])), '\n');
  if (doc.message_ids?.length) lines.push(`**message_ids:** ${doc.message_ids.map((id) => `\`${id}\``).join(', ')}\n\n`);
  if (doc.report) lines.push(`**report:** \`${doc.report}\`\n\n`);
  if (resendLine) lines.push('Some recipients were not reached. To resend exactly those:\n\n```sh\n', resendLine, '\n```\n');
  return lines.join('');
}
