// The GitHub Action: a thin adapter from the runner's INPUT_* variables to the pushctl command line, run
// through the same entry the CLI uses (main.ts run: the same commander tree, options schema, command
// function and exit codes), then the step's outputs, job summary and verdict.
import { appendFile } from 'node:fs/promises';
import type { TextSink } from '../context.js';
import { run } from '../main.js';
import { redact } from '../output/redact.js';
import { resendCommand } from '../commands/shared/resend-command.js';
import { ActionInputError, actionRun, getInput } from './inputs.js';
import { EXIT_MEANINGS, actionOutputs, jobSummary, type SendDocument } from './summary.js';
import { addMask, annotation } from '../output/workflow-commands.js';

export interface ActionIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: TextSink;
  stderr: TextSink;
}

/** Runs the action once and returns the step's exit status (the CLI's). */
export async function runAction(io: ActionIo): Promise<number> {
  // Masked before anything else is printed, so no later line, ours or the runner's, can show it.
  const rawSecret = getInput(io.env, 'app-secret');
  if (rawSecret) io.stdout.write(addMask(rawSecret));
  const scrub = (text: string) => (rawSecret ? redact(text, [rawSecret]) : text);

  let planned;
  try {
    planned = actionRun(io.env);
  } catch (error) {
    if (!(error instanceof ActionInputError)) throw error;
    io.stdout.write(annotation('error', `${error.message} (${error.hint})`, { title: 'pushctl: usage error' }));
    return 2;
  }

  let captured = '';
  const exitCode = await run(planned.argv, {
    ctx: {
      stdout: { write: (chunk: string) => (captured += chunk) },
      stderr: io.stderr,
      env: { ...io.env, ...planned.env },
      cwd: io.cwd,
    },
  });
  let doc: SendDocument = {};
  try {
    doc = JSON.parse(captured) as SendDocument;
  } catch {
    // Not a document (a crash before --json could answer): the exit status still tells the step's fate.
  }

  const recipients = doc.summary?.recipients ?? {};
  const left = (recipients.unknown ?? 0) + (recipients.not_sent ?? 0);
  const resendLine =
    left > 0 && doc.report
      ? resendCommand(
          planned.argv.filter((word) => word !== '--json'),
          doc.report,
        )
      : undefined;

  if (io.env.GITHUB_OUTPUT) await appendFile(io.env.GITHUB_OUTPUT, scrub(actionOutputs(doc, exitCode)));
  if (io.env.GITHUB_STEP_SUMMARY) await appendFile(io.env.GITHUB_STEP_SUMMARY, scrub(jobSummary(doc, exitCode, resendLine)));

  const ids = doc.message_ids?.length ? ` message_ids: ${doc.message_ids.join(' ')}` : '';
  io.stdout.write(scrub(`pushctl ${planned.argv[0]}: exit ${exitCode} (${EXIT_MEANINGS[exitCode] ?? 'unknown exit status'}).${ids}\n`));
  if (resendLine) io.stdout.write(scrub(`resend the rest with: ${resendLine}\n`));
  if (exitCode !== 0) {
    const detail = doc.error?.message ? `: ${doc.error.message}${doc.error.hint ? ` (${doc.error.hint})` : ''}` : '';
    io.stdout.write(scrub(annotation('error', `pushctl exited ${exitCode}, ${EXIT_MEANINGS[exitCode] ?? 'unknown exit status'}${detail}`, { title: 'pushctl' })));
  }
  return exitCode;
}
