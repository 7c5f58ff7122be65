// What a send owns before it reads what earlier runs did (docs/behaviour.md#ownership): its run id and
// family lock, with --once the key, and what the run found with that key left to send. One target's send and
// each target of several claim the same way.
import type { Ctx } from '../../context.js';
import { ExitCode, usageError } from '../../errors.js';
import { counted } from '../../counted.js';
import type { Lease } from '../../journal/ownership.js';
import { familyRoot, readRunLeft, type RunState } from '../../journal/read-run.js';
import type { HeaderRecord } from '../../journal/records.js';
import { journalBaseUrl } from '../../journal/run-journal.js';
import { runsDir } from '../../journal/runs-dir.js';
import { familyOutcome } from '../../journal/family-outcome.js';
import type { ClientIdSource } from '../../message/recipients.js';
import type { PushMessage } from '../../message/types.js';
import { escapeControl, onceFlag } from '../../output/escape-control.js';
import type { SkippedRun } from '../../output/skipped-run.js';
import type { Connection } from './connect.js';
import { familyExitCode } from './key-outcome.js';
import { familyLockName, freshRunId, locksDir, onceLockName, own } from './own-run.js';
import { familyFlags, resendRun, settingsFlags } from './resend-command.js';
import { checkResumable, familyOf, findOnceRun, remainingOf, sentAny, type Remaining } from './resume.js';
import { voucherFor, type Voucher } from './vouched-flags.js';

/** What a claim reads of the command's options. */
export interface ClaimOptions {
  /** `--once <key>`. */
  once?: string;
  dryRun: boolean;
  /** false with `--no-wait`: refuse rather than wait for another process. */
  wait?: boolean;
  /** `--include-in-doubt`: a re-run also sends to recipients left in doubt. */
  includeInDoubt?: boolean;
}

/** `Skip`: what the command returns when --once found the run already done. */
export interface RunClaim<Skip = { kind: 'skipped'; exitCode: number; skipped: SkippedRun }> {
  runId: string;
  lock: string;
  once?: { key: string; fingerprint: string };
  resume?: { parent: string; path: string; state: RunState; clientIds: string[] | undefined; body: PushMessage; inDoubt: number; left: string; family: string[] } & Pick<Remaining, 'variantOf' | 'audiences'> & Pick<HeaderRecord, 'variants'>;
  skipped?: Skip;
  /** The key's run cut short while its plan was written, before any request: this run sends afresh in its place. */
  afresh?: string;
}

/**
 * Owns what this run is about to send (docs/behaviour.md#ownership): with --once, the key (waiting for a
 * process that owns it), then the family of the run found with it; else a new run's own family. The leases
 * go into `leases` for the caller to release.
 */
export async function claimRun(options: ClaimOptions, body: object, clientIds: ClientIdSource | undefined, connection: Pick<Connection, 'appId' | 'baseUrl'>, leases: Lease[], ctx: Ctx & { argv?: readonly string[] }): Promise<RunClaim> {
  const runId = freshRunId(ctx.env);
  const wait = options.wait !== false;
  if (options.once === undefined) {
    const lock = familyLockName(runId);
    leases.push(await own(lock, runId, { what: `run ${runId}`, wait: true, journalOptional: true }, ctx));
    return { runId, lock };
  }
  const baseUrl = journalBaseUrl(connection.baseUrl);
  // Loaded here, not with the command: its node:crypto costs every send without --once a millisecond or two.
  const { messageFingerprint, sameFingerprint } = await import('../../message/fingerprint.js');
  const once = { key: options.once, fingerprint: messageFingerprint(body, clientIds) };
  leases.push(await own(onceLockName(once.key, connection.appId, baseUrl, options.dryRun), runId, { what: onceFlag(once.key), wait }, ctx));
  const dir = runsDir(ctx.env);
  const found = findOnceRun(dir, once.key, options.dryRun, { appId: connection.appId, baseUrl });
  if (!found) {
    const lock = familyLockName(runId);
    leases.push(await own(lock, runId, { what: `run ${runId}`, wait: true }, ctx));
    return { runId, lock, once };
  }
  if (!sameFingerprint(found.header.fingerprint, body, clientIds, once.fingerprint)) {
    throw usageError(
      `${onceFlag(once.key)}: run ${escapeControl(found.header.run_id)} used this key for another message or audience (${found.path}); this run's message or recipients differ`,
      otherUseHint(found, ctx.env, voucherFor(found.path, ctx, settingsFlags(ctx.argv ?? []))),
    );
  }
  const lock = familyLockName(familyRoot([dir], found));
  leases.push(await own(lock, runId, { what: `run ${escapeControl(found.header.run_id)}`, wait }, ctx));
  const earlier = readRunLeft(found.path, locksDir(ctx.env));
  if (earlier.incomplete && earlier.state !== 'running' && !sentAny(earlier)) {
    // Killed while it wrote its plan: no request went out (the journal is written before the wire), and this
    // run holds the original input that such a run asks to be sent again from (docs/behaviour.md#once).
    const fresh = familyLockName(runId);
    leases.push(await own(fresh, runId, { what: `run ${runId}`, wait: true }, ctx));
    return { runId, lock: fresh, once, afresh: earlier.header.run_id };
  }
  checkResumable(earlier, earlier.header.run_id, false, undefined, undefined, voucherFor(earlier.path, ctx, settingsFlags(ctx.argv ?? [])));
  const family = familyOf(earlier, ctx.env);
  const left = remainingOf(family, options.includeInDoubt === true);
  await proveKey(once.key, found.path, earlier.header, family[0]!.path, left.clientIds, clientIds);
  if (!left.any) {
    // Done: 0 when every recipient has it; otherwise the verdict of what the whole family delivered, the state
    // `runs show` gives it (docs/behaviour.md#once) — not the exit of whichever run ended last (a resume that
    // delivered all it sent said 0 beside recipients its parent left in doubt), nor of the run found.
    const last = [...family].reverse().find((member) => member.end !== undefined) ?? earlier;
    const exitCode = left.inDoubt === 0 && left.rejected === 0 ? ExitCode.ok : familyExitCode(family);
    return { runId, lock, once, skipped: { kind: 'skipped', exitCode, skipped: { run: last, family: familyOutcome(family), key: once.key, left } } };
  }
  // The journal's own message: the fingerprint says it is the same, and it is what the earlier run sent.
  const resume = {
    parent: earlier.header.run_id,
    path: earlier.path,
    state: earlier.state,
    clientIds: left.clientIds,
    body: earlier.header.message as PushMessage,
    inDoubt: options.includeInDoubt ? 0 : left.inDoubt,
    left: left.clientIds ? counted(left.clientIds.length, 'recipient') : (left.audience ?? 'its audience'),
    family: family.map((member) => member.header.run_id),
    ...(earlier.header.variants ? { variants: earlier.header.variants } : {}),
    ...(left.variantOf ? { variantOf: left.variantOf } : {}),
    ...(left.audiences ? { audiences: left.audiences } : {}),
  };
  return { runId, lock, once, resume };
}

/**
 * The next step when the key stands for another message or audience. A run of the key that left recipients
 * (killed, say, before an audience file grew) is finished by its resend, with its own message and recipients:
 * a new key would send its whole audience again, those who have it included (docs/behaviour.md#once).
 */
function otherUseHint(found: { path: string; header: HeaderRecord }, env: Ctx['env'], voucher: Voucher): string {
  const other = 'use a new key for a new announcement, or send the same message file, variables and recipients as that run';
  let left: boolean;
  try {
    const run = readRunLeft(found.path, locksDir(env));
    left = !(run.incomplete && !sentAny(run)) && remainingOf(familyOf(run, env), false).any;
  } catch {
    // A family still being sent, or a journal that cannot be read: nothing to finish from here.
    return other;
  }
  if (!left) return other;
  const targets = typeof found.header.targets === 'string';
  // A journal from elsewhere is data: its host and files are repeated only as this command names them itself.
  const flags = voucher(targets ? familyFlags(found.header.argv) : settingsFlags(found.header.argv));
  const command = resendRun(targets ? found.header.targets! : found.header.run_id, undefined, flags.flags)(false);
  return `that run is unfinished: \`${command}\` sends what it left, with its own message and recipients (a new key would send its whole audience again); send to recipients it did not have apart`;
}

/**
 * Refuses a key whose journals do not prove what they say (docs/behaviour.md#trust): the fingerprint made again
 * from their records is not the one the header claims, or what is left to send holds someone this command
 * does not name. An edited journal could otherwise have a re-run send its message, or skip its recipients.
 */
async function proveKey(key: string, path: string, found: HeaderRecord, rootPath: string, toSend: string[] | undefined, audience: ClientIdSource | undefined): Promise<void> {
  const { keyProofProblem, outsideAudience } = await import('../../journal/key-proof.js');
  const stranger = toSend ? outsideAudience(toSend, audience) : [];
  const problem = keyProofProblem(found, rootPath) ?? (stranger.length > 0 ? `its runs list recipients this command does not name (${stranger.map((id) => JSON.stringify(id)).join(', ')})` : undefined);
  if (problem === undefined) return;
  throw usageError(
    `${onceFlag(key)}: ${path} holds this key, but ${escapeControl(problem)}; nothing was sent`,
    'restore the journal as pushctl wrote it, or move it out of the journal directory if it is no run of yours (then this key sends afresh)',
  );
}
