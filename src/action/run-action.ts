// The GitHub Action: an entry beside main.ts. It turns the runner's INPUT_* variables into command options,
// calls the command functions themselves (send, dry-run, validate, check), then writes the step's outputs,
// job summary and verdict from what they returned.
import { appendFile } from 'node:fs/promises';
import type { Ctx, TextSink } from '../context.js';
import { CliError, ExitCode, exitMeaning } from '../errors.js';
import { deliveryOutcome, sendRun, type SendCommandOptions } from '../commands/send.js';
import { validateRun } from '../commands/validate.js';
import { checkCommand } from '../commands/check.js';
import { printDelivery } from '../output/delivery.js';
import { messageIds } from '../journal/run-state.js';
import { SecretScrubber } from '../output/redact.js';
import { plainStyle } from '../output/style.js';
import { describeValidation } from '../output/validation.js';
import { addMask, annotation } from '../output/workflow-commands.js';
import { actionRequest, getInput, type ActionRequest } from './inputs.js';
import { actionOutputs, jobSummary, type ActionResult } from './summary.js';
import { inActionTerms } from './terms.js';

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
  const scrubber = new SecretScrubber();
  scrubber.add(rawSecret);
  const stdout = scrubber.wrap(io.stdout);
  const stderr = scrubber.wrap(io.stderr);

  let request: ActionRequest;
  try {
    request = actionRequest(io.env);
  } catch (error) {
    if (!(error instanceof CliError)) throw error;
    stdout.write(annotation('error', `${error.message} (${error.hint ?? ''})`, { title: 'pushctl: usage error' }));
    scrubber.flush();
    return ExitCode.usage;
  }

  const env: Record<string, string | undefined> = { ...io.env, ...(request.secret ? { PUSHCTL_APP_SECRET: request.secret } : {}), ...(request.journalDir ? { PUSHCTL_JOURNAL_DIR: request.journalDir } : {}) };
  const never = new AbortController().signal;
  const ctx: Ctx = {
    stdout,
    stderr,
    get stdin(): Ctx['stdin'] {
      return process.stdin;
    },
    env,
    cwd: io.cwd,
    interrupt: never,
  };

  let result: ActionResult;
  try {
    result = await runMode(request, ctx, scrubber);
  } catch (error) {
    const expected = error instanceof CliError;
    const message = inActionTerms(error instanceof Error ? error.message : String(error));
    const hint = expected ? (error.hint ? inActionTerms(error.hint) : undefined) : 'this is a bug in pushctl: report it with the step log';
    result = { mode: request.mode, exitCode: expected ? error.exitCode : ExitCode.internal, skipped: false, messageIds: [], error: { message, ...(hint ? { hint } : {}) } };
  }

  if (io.env.GITHUB_OUTPUT) await appendFile(io.env.GITHUB_OUTPUT, scrubber.scrub(actionOutputs(result)));
  if (io.env.GITHUB_STEP_SUMMARY) await appendFile(io.env.GITHUB_STEP_SUMMARY, scrubber.scrub(jobSummary(result)));

  const meaning = exitMeaning(result.exitCode) ?? 'unknown exit status';
  stdout.write(`pushctl ${request.mode}: exit ${result.exitCode} (${meaning})${result.skipped ? ', skipped: once found the run already done' : ''}.\n`);
  if (result.exitCode !== 0) {
    const detail = result.error ? `: ${result.error.message}${result.error.hint ? ` (${result.error.hint})` : ''}` : '';
    stdout.write(annotation('error', `pushctl exited ${result.exitCode}, ${meaning}${detail}`, { title: 'pushctl' }));
  }
  if (result.advice?.command) {
    stdout.write(annotation('warning', `${result.advice.notSent} ${result.advice.unit} not sent: ${result.once ? 're-run this job (same once input, journal-dir restored)' : 'set the once input and cache journal-dir, then re-run this job'}, or run ${result.advice.command}${result.advice.inDoubt > 0 ? `; ${result.advice.inDoubt} in doubt (${result.advice.includeUnknownCommand})` : ''}`, { title: 'pushctl: recipients left' }));
  } else if (result.advice?.includeUnknownCommand) {
    stdout.write(annotation('warning', `${result.advice.inDoubt} ${result.advice.unit} in doubt (the service may already have delivered): ${result.advice.includeUnknownCommand} includes them, at the risk of sending twice`, { title: 'pushctl: recipients in doubt' }));
  }
  // The scrubbing sinks hold back a tail that could begin a secret until the next write or a flush.
  scrubber.flush();
  return result.exitCode;
}

async function runMode(request: ActionRequest, ctx: Ctx, scrubber: SecretScrubber): Promise<ActionResult> {
  const message = { file: request.file, ...(request.vars.length > 0 ? { var: request.vars } : {}), ...(request.clientIdsFile ? { clientIdsFile: request.clientIdsFile } : {}), strict: request.strict };
  const settings = { ...(request.appId ? { appId: request.appId } : {}), ...(request.region ? { region: request.region } : {}), ...(request.baseUrl ? { baseUrl: request.baseUrl } : {}) };
  const base = { mode: request.mode, skipped: false, messageIds: [] as string[] };

  if (request.mode === 'validate') {
    const validation = await validateRun(message, ctx);
    ctx.stderr.write(await describeValidation(validation, ctx));
    return { ...base, exitCode: validation.errors.length === 0 ? ExitCode.ok : ExitCode.invalidMessage, errors: validation.errors, warnings: validation.warnings };
  }
  if (request.mode === 'check') {
    const outcome = await checkCommand(settings, ctx, scrubber);
    ctx.stderr.write(`${outcome.ok ? '✓' : '✗'} ${outcome.line}\n`);
    return {
      ...base,
      exitCode: outcome.exitCode,
      checkLine: inActionTerms(outcome.line),
      ...(outcome.error ? { error: { message: inActionTerms(outcome.error.message), ...(outcome.error.hint ? { hint: inActionTerms(outcome.error.hint) } : {}) } } : {}),
    };
  }

  const options: SendCommandOptions = {
    ...message,
    ...settings,
    dryRun: request.mode === 'dry-run',
    argv: ['action', request.mode],
    ...(request.report ? { report: request.report } : {}),
    ...(request.rate !== undefined ? { rate: request.rate } : {}),
    ...(request.once ? { once: request.once } : {}),
  };
  const outcome = await sendRun(options, ctx, scrubber, plainStyle);
  switch (outcome.kind) {
    case 'invalid':
      ctx.stderr.write(await describeValidation(outcome.validation, ctx));
      return { ...base, exitCode: outcome.exitCode, errors: outcome.validation.errors, warnings: outcome.validation.warnings, error: { message: 'the message is invalid' } };
    case 'skipped': {
      const { run } = outcome.skipped;
      return {
        ...base,
        exitCode: outcome.exitCode,
        skipped: true,
        runId: run.header.run_id,
        messageIds: messageIds(run.results),
        summary: run.summary,
        ...(outcome.skipped.left.audience ? { audience: outcome.skipped.left.audience } : {}),
        once: outcome.skipped.key,
      };
    }
    case 'delivered': {
      const rendered = deliveryOutcome(outcome);
      printDelivery(rendered, {}, ctx, plainStyle);
      const { delivery } = outcome;
      return {
        ...base,
        exitCode: outcome.exitCode,
        messageIds: delivery.results.flatMap((r) => (r.messageId !== undefined ? [r.messageId] : [])),
        summary: delivery.summary,
        ...(delivery.audience ? { audience: delivery.audience } : {}),
        ...(delivery.runId ? { runId: delivery.runId } : {}),
        ...(delivery.reportPath ? { report: delivery.reportPath } : {}),
        ...(delivery.advice ? { advice: delivery.advice } : {}),
        ...(request.once ? { once: request.once } : {}),
        ...(outcome.resumedFrom ? { resumedFrom: outcome.resumedFrom } : {}),
        ...(rendered.stopError ? { error: { message: inActionTerms(rendered.stopError.message), ...(rendered.stopError.hint ? { hint: inActionTerms(rendered.stopError.hint) } : {}) } } : {}),
        ...(outcome.exitCode !== 0 && !rendered.stopError ? { error: { message: outcomeLine(rendered.summary, outcome.exitCode) } } : {}),
      };
    }
  }
}

function outcomeLine(summary: { batches: { accepted: number; total: number } }, exitCode: number): string {
  return `${summary.batches.accepted} of ${summary.batches.total} batches accepted (${exitMeaning(exitCode) ?? 'exit ' + exitCode})`;
}
