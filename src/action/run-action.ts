// The GitHub Action: an entry beside main.ts. It turns the runner's INPUT_* variables into command options,
// calls the command functions themselves (send, dry-run, validate, check), then writes the step's outputs,
// job summary and verdict from what they returned.
import { appendFile, readFile } from 'node:fs/promises';
import type { PlaceholderScope } from '../message/assemble.js';
import { releaseUnavailable, releaseVars } from './release-event.js';
import type { Ctx, TextSink } from '../context.js';
import { CliError, ExitCode, exitMeaning } from '../errors.js';
import { send, type SendOutcome } from '../commands/send/run.js';
import { sendOptionsSchema } from '../commands/send/options.js';
import { parseOptions } from '../commands/shared/check-options.js';
import { validateRun } from '../commands/validate/run.js';
import { check } from '../commands/check/run.js';
import { skippedVerdict } from '../output/skipped-run.js';
import { keyVerdict, printDelivery } from '../output/delivery.js';
import { closedState, stateWords } from '../journal/read-run.js';
import { serviceRefused } from '../client/report.js';
import { SecretScrubber } from '../output/redact.js';
import { adviceCount, inDoubtWords } from '../output/resend-advice.js';
import { flagsOfSettings, resendAdvice, resendRun, settingsFlags } from '../commands/shared/resend-command.js';
import { voucherFor, type Voucher } from '../commands/shared/vouched-flags.js';
import { codeSpan } from '../output/markdown.js';
import { plainStyle } from '../output/style.js';
import { describeValidation } from '../output/validation.js';
import { addMask, annotation } from '../output/workflow-commands.js';
import { actionRequest, getInput, requestedMode, type ActionMode, type ActionRequest } from './inputs.js';
import { acceptedAndLeft, actionOutputs, jobSummary, languageRows, type ActionResult } from './summary.js';
import { actionTermsSink, inActionTerms } from './terms.js';
import { failureOf } from './failure.js';
import { acceptedCell, printTargets, targetsDocument, targetsState } from '../output/targets.js';
import { sumSummaries } from '../client/report.js';
import { counted } from '../counted.js';
import { targetsAsKey, type TargetsAsKey } from '../commands/shared/targets-key.js';

export interface ActionIo {
  env: Record<string, string | undefined>;
  cwd: string;
  stdout: TextSink;
  stderr: TextSink;
  /** The stop signals (src/stop-on-signals.ts); without them the run is never interrupted. */
  interrupt?: AbortSignal;
  stopNow?: AbortSignal;
}

/** Exit 0 of a mode that sends nothing is not "every batch accepted": it has no batches. */
const SUCCESS_OF: Partial<Record<ActionMode, string>> = {
  validate: 'the message is valid; nothing was sent',
  check: 'the credentials were accepted; nothing was delivered',
};

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
    // Refused before anything ran, but said as every other outcome is: the outputs (exit-code), the job
    // summary and the last line, beside the one annotation naming the input.
    const mode = requestedMode(io.env);
    const result: ActionResult = { ...(mode ? { mode } : {}), exitCode: ExitCode.usage, skipped: false, messageIds: [], error: { message: inActionTerms(error.message), ...(error.hint ? { hint: inActionTerms(error.hint) } : {}) } };
    await writeStepFiles(io.env, result, scrubber);
    stdout.write(lastLine(result) + failureAnnotation(result));
    scrubber.flush();
    return ExitCode.usage;
  }

  const env: Record<string, string | undefined> = { ...io.env, ...(request.secret ? { PUSHCTL_APP_SECRET: request.secret } : {}), ...(request.journalDir ? { PUSHCTL_JOURNAL_DIR: request.journalDir } : {}) };
  // What the commands print is said in the action's terms, line by line, before the secret filter.
  const commandOut = actionTermsSink(stdout);
  const commandErr = actionTermsSink(stderr);
  const ctx: Ctx = {
    stdout: commandOut,
    stderr: commandErr,
    get stdin(): Ctx['stdin'] {
      return process.stdin;
    },
    env,
    cwd: io.cwd,
    interrupt: io.interrupt ?? new AbortController().signal,
    ...(io.stopNow ? { stopNow: io.stopNow } : {}),
    // A pull request can change a JavaScript config; the action never runs one (docs/behaviour.md#trust).
    runJavaScriptConfig: false,
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

  commandOut.flush();
  commandErr.flush();
  await writeStepFiles(io.env, result, scrubber);

  stdout.write(lastLine(result) + failureAnnotation(result));
  const count = (n: number) => adviceCount({ unit: result.advice?.unit ?? 'recipients' }, n);
  if (result.advice?.command) {
    stdout.write(annotation('warning', `${count(result.advice.notSent)} not sent: ${result.once ? 're-run this job (same once input, journal-dir restored)' : 'set the once input and cache journal-dir, then re-run this job'}, or run ${codeSpan(result.advice.command)}${result.advice.includeInDoubtCommand ? `; ${result.advice.inDoubt} in doubt (${codeSpan(result.advice.includeInDoubtCommand)})` : ''}`, { title: 'pushctl: recipients left' }));
  } else if (result.advice?.includeInDoubtCommand) {
    const words = inDoubtWords(result.advice);
    stdout.write(annotation('warning', `${count(result.advice.inDoubt)} in doubt (${words.maybe}): ${codeSpan(result.advice.includeInDoubtCommand)} includes them, ${words.risk}`, { title: 'pushctl: recipients in doubt' }));
  }
  // The scrubbing sinks hold back a tail that could begin a secret until the next write or a flush.
  scrubber.flush();
  return result.exitCode;
}

/** The step's outputs and job summary, through the secret filter. */
async function writeStepFiles(env: Record<string, string | undefined>, result: ActionResult, scrubber: SecretScrubber): Promise<void> {
  if (env.GITHUB_OUTPUT) await appendFile(env.GITHUB_OUTPUT, scrubber.scrub(actionOutputs(result)));
  if (env.GITHUB_STEP_SUMMARY) await appendFile(env.GITHUB_STEP_SUMMARY, scrubber.scrub(jobSummary(result)));
}

/** What the exit status means; a send or dry run that succeeded has no words of its own: exit 0's are theirs. */
function exitWords(result: ActionResult): string {
  return (result.exitCode === ExitCode.ok && result.mode ? SUCCESS_OF[result.mode] : undefined) ?? exitMeaning(result.exitCode) ?? 'unknown exit status';
}

/** The one error annotation of a step that failed, whether an input or the run refused it: the exit status, its meaning and the error. */
function failureAnnotation(result: ActionResult): string {
  if (result.exitCode === 0) return '';
  const detail = result.error ? `: ${result.error.message}${result.error.hint ? ` (${result.error.hint})` : ''}` : '';
  return annotation('error', `pushctl exited ${result.exitCode}, ${exitWords(result)}${detail}`, { title: 'pushctl' });
}

/** The step's last line: the mode, the exit status and its meaning. */
function lastLine(result: ActionResult): string {
  const skipped = result.skipped ? `, skipped: once found the run ${result.exitCode === 0 ? 'already done' : 'had already run'}` : '';
  return `pushctl${result.mode ? ` ${result.mode}` : ''}: exit ${result.exitCode} (${exitWords(result)})${skipped}.\n`;
}

/**
 * The placeholders the workflow's event fills (docs/behaviour.md#audiences): on a release, its variables go
 * before the vars input (which may override them); on any other event, a `{{release.*}}` is an error naming it.
 */
async function eventPlaceholders(ctx: Ctx): Promise<{ vars: string[]; placeholderScopes?: PlaceholderScope[] }> {
  const event = ctx.env.GITHUB_EVENT_NAME;
  const path = ctx.env.GITHUB_EVENT_PATH;
  const payload = event === 'release' && path ? await readFile(path, 'utf8').catch(() => undefined) : undefined;
  const release = releaseVars(event, payload);
  if (!release.available) return { vars: [], placeholderScopes: [releaseUnavailable(release.event)] };
  for (const warning of release.warnings) ctx.stdout.write(annotation('warning', warning, { title: 'pushctl: release notes cut' }));
  return { vars: Object.entries(release.vars).map(([name, value]) => `${name}=${value}`) };
}

async function runMode(request: ActionRequest, ctx: Ctx, scrubber: SecretScrubber): Promise<ActionResult> {
  const fromEvent = request.mode === 'check' ? { vars: [] } : await eventPlaceholders(ctx);
  const vars = [...fromEvent.vars, ...request.vars];
  const message = { file: request.file, ...(vars.length > 0 ? { var: vars } : {}), ...(fromEvent.placeholderScopes ? { placeholderScopes: fromEvent.placeholderScopes } : {}), ...(request.clientIdsFile ? { clientIdsFile: request.clientIdsFile } : {}), ...(request.to ? { to: request.to } : {}), strict: request.strict };
  const settings = { ...(request.appId ? { appId: request.appId } : {}), ...(request.region ? { region: request.region } : {}), ...(request.baseUrl ? { baseUrl: request.baseUrl } : {}), ...(request.profiles ? { profile: request.profiles } : {}) };
  const base = { mode: request.mode, skipped: false, messageIds: [] as string[] };

  if (request.mode === 'validate') {
    const validation = await validateRun({ ...message, ...(request.profiles ? { profile: request.profiles } : {}) }, ctx);
    ctx.stderr.write(await describeValidation(validation, ctx));
    return { ...base, exitCode: validation.errors.length === 0 ? ExitCode.ok : ExitCode.invalidMessage, errors: validation.errors, warnings: validation.warnings };
  }
  if (request.mode === 'check') {
    const outcome = await check(settings, { ...ctx, scrubber });
    ctx.stderr.write(`${outcome.ok ? '✓' : '✗'} ${outcome.line}\n`);
    return {
      ...base,
      exitCode: outcome.exitCode,
      // A failure's line is its error, said below the heading with the next step: once.
      ...(outcome.ok ? { checkLine: inActionTerms(outcome.line) } : {}),
      ...(outcome.error ? { error: { message: inActionTerms(outcome.error.message), ...(outcome.error.hint ? { hint: inActionTerms(outcome.error.hint) } : {}) } } : {}),
    };
  }

  // The inputs become send's options through send's own schema, as `pushctl send`'s flags do.
  const options = parseOptions(sendOptionsSchema, {
    ...message,
    ...settings,
    dryRun: request.mode === 'dry-run',
    ...(request.report ? { report: request.report } : {}),
    ...(request.rate !== undefined ? { rate: request.rate } : {}),
    ...(request.once ? { once: request.once } : {}),
  });
  // The journal's header keeps the settings the inputs chose, as the flags a command line would give them: every
  // resend command built from it (this step's advice, `runs show`, a once re-run) goes where the run went.
  const argv = ['action', request.mode, ...flagsOfSettings(settings)];
  const outcome = await send(options, { ...ctx, scrubber, argv, style: plainStyle });
  switch (outcome.kind) {
    case 'invalid':
      ctx.stderr.write(await describeValidation(outcome.validation, ctx));
      // The exit status says the message is invalid; the findings say where (as mode validate says them).
      return { ...base, exitCode: outcome.exitCode, errors: outcome.validation.errors, warnings: outcome.validation.warnings };
    case 'skipped':
      return skippedResult(outcome, request, voucherFor(outcome.skipped.run.path, ctx, settingsFlags(argv)));
    case 'targets':
      printTargets({ ...outcome.targets, advice: undefined }, {}, ctx, plainStyle);
      return { ...base, ...targetsResult(request.once ? targetsAsKey(outcome.targets, ctx.env) : { outcome: outcome.targets, resumed: [] }), ...(request.once ? { once: request.once } : {}) };
    case 'delivered': {
      const { delivery } = outcome;
      const { stopError } = delivery;
      // What is left is said once, in the action's terms (a re-run), by the annotation and the summary. The
      // command that writes a report is not the action's (its terms would mangle it): the report input is.
      printDelivery({ ...delivery, advice: undefined, reportCommand: undefined }, {}, ctx, plainStyle);
      // A cancelled job is why the batches left were not sent: said before any batch's own reason.
      // A once re-run that resumed its key fails for what the key's runs left together, when this attempt
      // itself delivered all it sent.
      const keyLeft = delivery.key && { message: keyVerdict(delivery.key, outcome.exitCode), hint: keyLeftHint(delivery.key.summary.recipients.in_doubt + delivery.key.summary.batches.in_doubt) };
      const failed = outcome.exitCode !== 0 && !stopError ? (delivery.interrupted ? { message: cancelledLine(delivery.summary) } : (failureOf(delivery.results) ?? keyLeft)) : undefined;
      const failure = failed && { message: inActionTerms(failed.message), ...(failed.hint ? { hint: inActionTerms(failed.hint) } : {}) };
      return {
        ...base,
        exitCode: outcome.exitCode,
        state: stateWords(closedState(delivery.summary, delivery.interrupted, serviceRefused(delivery.results))),
        messageIds: delivery.results.flatMap((r) => (r.messageId !== undefined ? [r.messageId] : [])),
        summary: delivery.summary,
        ...(delivery.variants ? { languages: languageRows(delivery.variants) } : {}),
        ...keyAsAWhole(delivery),
        ...(delivery.audience ? { audience: delivery.audience } : {}),
        ...(delivery.runId ? { runId: delivery.runId } : {}),
        ...(delivery.reportPath ? { report: delivery.reportPath } : {}),
        ...(delivery.advice ? { advice: delivery.advice } : {}),
        ...(request.once ? { once: request.once } : {}),
        ...(delivery.resumedFrom ? { resumedFrom: delivery.resumedFrom } : {}),
        ...(stopError ? { error: { message: inActionTerms(stopError.message), ...(stopError.hint ? { hint: inActionTerms(stopError.hint) } : {}) } } : {}),
        ...(outcome.exitCode !== 0 && !stopError ? { error: failure ?? { message: outcomeLine(delivery.summary, outcome.exitCode) } } : {}),
      };
    }
  }
}

/**
 * A once re-run that resumed its key's run: the state, counts, message_ids and languages are the key's whole audience
 * (the run and every re-run that continued it), as its report and the next re-run that once skips say them
 * (docs/behaviour.md#once); what this attempt sent is kept apart for the summary.
 */
function keyAsAWhole(delivery: Extract<SendOutcome, { kind: 'delivered' }>['delivery']): Partial<ActionResult> {
  // The send answered for the key (its exit status too): commands/shared/key-outcome.ts.
  const family = delivery.key;
  if (family === undefined) return {};
  return {
    state: stateWords(family.state),
    summary: family.summary,
    messageIds: family.message_ids,
    ...(family.variants ? { languages: languageRows(family.variants) } : {}),
    attempt: delivery.summary,
  };
}

/** The next step for a key whose runs left nothing to send now: what is in doubt, or what the service refused. */
const keyLeftHint = (inDoubt: number) =>
  inDoubt > 0 ? 'what is left is in doubt (the service may already have delivered): see the resend command, which includes it at the risk of sending twice' : 'what it did not deliver was rejected by the service: fix the cause and set a new once input';

/** once found the run done: what its whole family delivered, as `runs show` counts it (docs/behaviour.md#once). */
function skippedResult(outcome: Extract<SendOutcome, { kind: 'skipped' }>, request: ActionRequest, voucher: Voucher): ActionResult {
  // The report the skipped run wrote is gone with its runner: send wrote the family's (the report input).
  const { run, family, report, left } = outcome.skipped;
  // Not delivered in full: why, and the next step in the action's terms, as the CLI's document says it; what is
  // in doubt is the resend advice (the action has no input that includes them).
  // A journal from elsewhere is data: its host and files are repeated only as this step's own inputs name them.
  const flags = voucher(settingsFlags(run.header.argv)).flags;
  const advice = resendAdvice(resendRun(run.header.run_id, undefined, flags), { notSent: 0, inDoubt: left.inDoubt }, left.audience);
  const failed = outcome.exitCode !== ExitCode.ok && {
    message: skippedVerdict(outcome.skipped, outcome.exitCode),
    hint: keyLeftHint(left.inDoubt),
  };
  return {
    ...(advice ? { advice } : {}),
    ...(failed ? { error: failed } : {}),
    ...(report !== undefined ? { report } : {}),
    mode: request.mode,
    exitCode: outcome.exitCode,
    skipped: true,
    state: 'skipped',
    runId: run.header.run_id,
    messageIds: family.message_ids,
    summary: family.summary,
    ...(outcome.skipped.left.audience ? { audience: outcome.skipped.left.audience } : {}),
    ...(family.variants ? { languages: languageRows(family.variants) } : {}),
    once: outcome.skipped.key,
  };
}

/**
 * A run of several targets, as the step's outputs and summary say it: a row per target, the counts added up;
 * with once, each target's row is its key's (targets-key.ts).
 */
function targetsResult({ outcome, resumed, attempt, state }: TargetsAsKey): Omit<ActionResult, 'mode'> {
  const skipped = outcome.targets.every((t) => t.state === 'skipped');
  const doc = targetsDocument(outcome) as { error?: { message: string; hint?: string } };
  // Every target is sent the same recipients: an audience without client IDs is the output and the table's
  // column, as with one profile (a target stopped before sending still knows it).
  const audience = outcome.targets.find((t) => t.audience !== undefined)?.audience;
  return {
    ...(audience !== undefined ? { audience } : {}),
    exitCode: outcome.exitCode,
    skipped,
    ...(resumed.length > 0 ? { resumedTargets: resumed } : {}),
    ...(attempt ? { attempt } : {}),
    state: stateWords(targetsState(outcome.targets, outcome.exitCode, state)),
    messageIds: outcome.targets.flatMap((t) => t.messageIds),
    summary: sumSummaries(outcome.targets.map((t) => t.summary)),
    ...(outcome.family !== undefined ? { runId: outcome.family } : skipped && outcome.targets[0]?.runId !== undefined ? { runId: outcome.targets[0].runId } : {}),
    ...(outcome.advice ? { advice: outcome.advice } : {}),
    // What is left is said once, in the action's terms, by the advice's annotation and summary (as for one
    // target); the document's hint would say its command again, as prose. Without advice, the target's own hint.
    // A cancelled job is why the batches left were not sent: said before any target's own reason, as for one target.
    ...(doc.error ? { error: outcome.targets.some((t) => t.state === 'interrupted') ? { message: cancelledLine(sumSummaries(outcome.targets.map((t) => t.summary))) } : { message: inActionTerms(doc.error.message), ...(doc.error.hint && !outcome.advice ? { hint: inActionTerms(doc.error.hint) } : {}) } } : {}),
    targets: outcome.targets.map((t) => ({
      profile: t.profile,
      appId: t.appId,
      baseUrl: t.baseUrl,
      ...(t.runId !== undefined ? { runId: t.runId } : {}),
      state: stateWords(t.state),
      // Accepted in the words `send --profile` prints ("all of it" for a message to all devices); left counted as there.
      ...acceptedAndLeft(t.audience ? t.summary.batches : t.summary.recipients),
      accepted: acceptedCell(t),
    })),
    ...(outcome.targets.some((t) => t.variants) ? { languages: outcome.targets.flatMap((t) => languageRows(t.variants ?? [], t.profile)) } : {}),
  };
}

function cancelledLine(summary: { batches: { total: number; not_sent: number } }): string {
  const { total, not_sent: notSent } = summary.batches;
  return `interrupted (a signal: the job was cancelled): ${total - notSent} of ${counted(total, 'batch')} went out`;
}

function outcomeLine(summary: { batches: { accepted: number; total: number } }, exitCode: number): string {
  return `${summary.batches.accepted} of ${counted(summary.batches.total, 'batch')} accepted (${exitMeaning(exitCode) ?? 'exit ' + exitCode})`;
}
