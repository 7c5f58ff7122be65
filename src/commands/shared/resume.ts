// What a run left to send, read back from its journal: the input of `pushctl resend` and of `--once`
// resuming a run. Only not_sent recipients by default — they cannot have been delivered; the in-doubt ones
// (the service may have delivered to them) only when asked.
import { shellQuote } from '../../shell-quote.js';
import { usageError } from '../../errors.js';
import { recipientCount, type BatchResult } from '../../client/send-batches.js';
import { runAudience } from '../../journal/run-state.js';
import { dirname } from 'node:path';
import { readRun, readRunLeft, replacementOf, runFamily, type RunView } from '../../journal/read-run.js';
import { familyResults } from '../../journal/family-outcome.js';
import { anyHeader, listRunNames, runsDir } from '../../journal/runs-dir.js';
import { headerProblem, type HeaderRecord } from '../../journal/records.js';
import { onceFlag } from '../../output/escape-control.js';
import { locksDir } from './own-run.js';
import type { ClientIdSource, RecipientLanguageSource } from '../../message/recipients.js';
import { variantFor } from '../../message/variants.js';
import { resendRun, runFlags } from './resend-command.js';
import { vouchedFlags, type Voucher } from './vouched-flags.js';


export interface Remaining {
  /** The client IDs to send, in run order (unknown first when included); absent for an audience without IDs. */
  clientIds?: string[];
  audience?: string;
  /** Recipients (batches, for an audience) certainly not sent, and those in doubt, whether or not included. */
  notSent: number;
  inDoubt: number;
  /** Whether the in-doubt ones are among those to send (--include-in-doubt): a preview then says so, not to add the flag. */
  inDoubtIncluded: boolean;
  /** Recipients (batches, for an audience) the service refused: a resend does not send them again. */
  rejected: number;
  /** Whether anything is to be sent. */
  any: boolean;
  /**
   * A run with variants (docs/behaviour.md#variants): the variant each client ID to send carried (null: the base
   * message), or for an ID first read from the input given again, its language, which chooses its variant.
   */
  variantOf?: ReadonlyMap<string, string | null>;
  /** A run with variants to an audience: the variant of each request to send again, in order. */
  audiences?: (string | null)[];
}

/** Whether any request of a run went out: a run cut short while planning may still have sent the batches it had read. */
export function sentAny(run: RunView): boolean {
  return run.results.some((r) => r.attempts > 0);
}

/**
 * The resend of a run stopped before it read all of its client-ID input: its input has to be given again,
 * for the recipients the journal never saw. Undefined for any other run.
 */
export function resendWithInput(run: RunView, ref: string, voucher: Voucher = (flags) => vouchedFlags(flags, [])): string | undefined {
  if (!run.incomplete || !sentAny(run)) return undefined;
  const { input, flags } = vouchedInput(run, voucher);
  return resendRun(ref, input, flags)(false);
}

/**
 * The input file and settings flags a resend given its input again is printed with: the file, as a file a
 * journal names, only as its voucher allows (docs/behaviour.md#trust); a placeholder stands for it otherwise,
 * as for a journal that names none. Stdin (`-`) names no file.
 */
export function vouchedInput(run: RunView, voucher: Voucher): { input: string; flags: string[]; leftOut: string[] } {
  const placeholder = '<its client-ID file>';
  const input = run.header.input;
  if (input === undefined || input === '-') return { input: input ?? placeholder, ...voucher(runFlags(run.header)) };
  const { flags, leftOut } = voucher(['--client-ids-file', input, ...runFlags(run.header)]);
  return flags[0] === '--client-ids-file' ? { input, flags: flags.slice(2), leftOut } : { input: placeholder, flags, leftOut };
}

/**
 * Refuses a run that cannot be resent: still running, or its journal cut short before its plan was complete
 * and not given its input again (`withInput`, or `givenAgainBy` an earlier resend), or given an input it does
 * not need. `replacedBy`: the --once run sent afresh in place of one cut short before any request. `voucher`:
 * which of the run's flags naming a host or a file its hint may repeat (vouched-flags.ts).
 */
export function checkResumable(run: RunView, ref: string, withInput = false, givenAgainBy?: string, replacedBy?: string, voucher?: Voucher): void {
  if (run.state === 'running') {
    throw usageError(`run ${run.header.run_id} is still running (pid ${run.header.pid})`, `wait for it to end, or stop it, then run pushctl resend ${shellQuote(ref)}`);
  }
  if (run.incomplete && !sentAny(run)) {
    throw usageError(
      `run ${run.header.run_id} cannot be a resend source: ${run.incomplete.reason}`,
      // Sent afresh already by a --once re-run: sending its input again would send it twice.
      replacedBy !== undefined
        ? `nothing was sent before its plan was complete, and run ${replacedBy} replaced it, sending its whole input afresh: nothing is left to send (see pushctl runs show ${replacedBy})`
        : 'nothing was sent before its plan was complete: send again from the original input',
    );
  }
  // Once a resend read the input again and planned it whole, the family knows every recipient.
  if (run.incomplete && !withInput && givenAgainBy === undefined) {
    throw usageError(
      `run ${run.header.run_id} stopped before it read all of its client-ID input, after sending some of it: ${run.incomplete.reason}`,
      `give it the same input again; the rest is sent, never a recipient the run planned: ${resendWithInput(run, ref, voucher)!}`,
    );
  }
  if (!run.incomplete && withInput) {
    throw usageError(
      `--client-ids-file: run ${run.header.run_id}'s journal lists every recipient; the option is for a run stopped before it read all of its input`,
      `drop --client-ids-file: pushctl resend ${shellQuote(ref)}`,
    );
  }
}

/**
 * The --once run sent afresh in place of `run`, when `run` was cut short while planning before any request
 * (docs/behaviour.md#once); read only then, from the run's directory and the runs directory.
 */
export function replacedBy(run: RunView, env: Record<string, string | undefined>): string | undefined {
  return run.incomplete && !sentAny(run) ? replacementOf([dirname(run.path), runsDir(env)], run.header.run_id) : undefined;
}

/** A client-ID input given again to a resend: its IDs, and each one's language when it is a CSV with one. */
export interface RunInput {
  ids: ClientIdSource;
  languages?: RecipientLanguageSource | undefined;
}

/** How many IDs a pass over a long input takes at a time. */
const CHUNK = 65_536;

/** Each position of `ids` with its ID, a chunk at a time: an input of millions is never copied whole. */
function forEachId(ids: ClientIdSource, visit: (id: string, position: number) => void): void {
  for (let start = 0; start < ids.length; start += CHUNK) ids.slice(start, Math.min(ids.length, start + CHUNK)).forEach((id, k) => visit(id, start + k));
}

/**
 * Checks that `input` is the run's own input. The run planned each lane's recipients in the order they were
 * read (one lane, unless it had variants: one per variant, docs/behaviour.md#variants), so each lane's batches
 * are the first of the input's recipients of that lane, in order. Throws a usage error naming the first
 * difference.
 */
export function checkSameInput(run: RunView, input: RunInput, name: string): void {
  const lanes = run.results.some((r) => r.variant !== undefined);
  const tags = lanes && run.header.variants !== undefined ? Object.keys(run.header.variants) : [];
  const planned = new Map<string | null, string[]>();
  for (const r of run.results) {
    const lane = r.variant ?? null;
    const list = planned.get(lane) ?? [];
    for (const id of r.clientIds) list.push(id);
    planned.set(lane, list);
  }
  const matched = new Map<string | null, number>();
  const differs = (position: number, expected: string, found: string) =>
    usageError(
      `--client-ids-file ${name} is not run ${run.header.run_id}'s input: its recipient ${position + 1} was ${JSON.stringify(expected)}, where ${found}`,
      `give the client-ID file the run read${run.header.input !== undefined && run.header.input !== '-' ? ` (${run.header.input})` : ''}, as it was then`,
    );
  forEachId(input.ids, (id, position) => {
    const lane = lanes ? (variantFor(input.languages?.at(position), tags) ?? null) : null;
    const want = planned.get(lane);
    const at = matched.get(lane) ?? 0;
    if (!want || at >= want.length) return;
    if (want[at] !== id) throw differs(position, want[at]!, `it has ${JSON.stringify(id)}`);
    matched.set(lane, at + 1);
  });
  for (const [lane, want] of planned) {
    const at = matched.get(lane) ?? 0;
    if (at < want.length) throw differs(input.ids.length, want[at]!, 'the file ends');
  }
}

/**
 * The resend that gave a run stopped before the end of its input (`incomplete`, some of it sent) that input
 * again and planned it whole: the family then knows every recipient, and the run needs its input no more
 * (docs/behaviour.md#journal). A resend of such a run is refused without its input, so any whole resend in its
 * family is one. Undefined for any other run.
 */
export function inputGivenAgainBy(run: RunView, members: readonly RunView[]): string | undefined {
  if (!run.incomplete) return undefined;
  return members.find((member) => member.path !== run.path && !member.incomplete && member.state !== 'running')?.header.run_id;
}

/** Whether a run was read with every batch's client IDs (readRun), not only those it left (readRunLeft). */
const readWhole = (run: RunView) => run.results.every((r) => recipientCount(r) === r.clientIds.length);

/**
 * The run and every run that resent it (and so on), oldest first, read whole: what they left together is
 * what a resend of any of them sends, so resending the same run twice never sends anyone the message twice.
 * Members still running are refused; members cut short while planning that sent nothing are left out.
 */
export function familyOf(run: RunView, env: Record<string, string | undefined>, whole = false): RunView[] {
  return notRunning(familyRuns(run, env, whole));
}

/** The family's members, refused when one is still running: a sender may not act on a family being sent. */
export function notRunning(members: RunView[]): RunView[] {
  for (const member of members) {
    if (member.state === 'running') throw usageError(`run ${member.header.run_id}, a resend of this run, is still running (pid ${member.header.pid})`, 'wait for it to end, or stop it, then try again');
  }
  return members;
}

/**
 * The family as familyOf reads it, members still running kept (they are what `runs show` reports): a reader
 * may look at a family while it is sent, only a sender may not act on it.
 */
export function familyRuns(run: RunView, env: Record<string, string | undefined>, whole = false): RunView[] {
  const paths = runFamily([dirname(run.path), runsDir(env)], run);
  const locks = locksDir(env);
  // The first run matters for what it left (`whole`: for a report, every ID); every later member for all it
  // sent (its word replaces the first run's), so those are read whole, whatever `run` was read for. They are
  // what resends sent.
  const members = paths.map((path, i) => {
    const needWhole = i > 0 || whole;
    if (path === run.path && (!needWhole || readWhole(run))) return run;
    return needWhole ? readRun(path, locks) : readRunLeft(path, locks);
  });
  return members.filter((member) => member.state === 'running' || !member.incomplete || sentAny(member));
}

/**
 * What a family of runs (see familyOf) left: each recipient's word is that of the newest run that sent to it.
 * `input`: the first run's input given again (it stopped before reading all of it): its recipients no run of
 * the family has seen are not sent.
 */
export function remainingOf(family: readonly RunView[], includeInDoubt: boolean, input?: RunInput): Remaining {
  const newest = family[family.length - 1]!;
  const audience = runAudience(newest.header);
  // An audience is one request per variant lane, and a resend sends only some lanes again: each lane's word
  // is its newest request's, wherever in the family that is — never only the newest run's.
  if (audience && newest.results.some((r) => r.variant !== undefined)) return remainingAudiences(familyResults(family), audience, includeInDoubt);
  if (audience) {
    const status = newest.results[0]?.status;
    const notSent = status === 'not_sent' ? 1 : 0;
    const inDoubt = status === 'in_doubt' ? 1 : 0;
    // Its one batch is sent again when it is not sent, or in doubt and included.
    return { audience, notSent, inDoubt, inDoubtIncluded: includeInDoubt, rejected: status === 'rejected' ? 1 : 0, any: notSent > 0 || (includeInDoubt && inDoubt > 0) };
  }
  // Insertion order is first-seen order: the order of the first run's input.
  const statusOf = new Map<string, BatchResult['status']>();
  const variantOf = new Map<string, string | null>();
  for (const member of family) {
    for (const r of member.results) {
      for (const id of r.clientIds) {
        statusOf.set(id, r.status);
        if (r.variant !== undefined) variantOf.set(id, r.variant);
      }
    }
  }
  // The input given again: what no run of the family planned is not sent, in the variant of its language.
  if (input) {
    forEachId(input.ids, (id, position) => {
      if (statusOf.has(id)) return;
      statusOf.set(id, 'not_sent');
      const language = input.languages?.at(position);
      if (language !== undefined) variantOf.set(id, language);
    });
  }
  const inDoubtIds: string[] = [];
  const notSent: string[] = [];
  // A run read for what it left (readRunLeft) holds no IDs of its refused batches: they count by their size,
  // or a refused run would read as done. No run sends a refused ID again, so no later word replaces theirs.
  let rejected = 0;
  for (const member of family) {
    for (const r of member.results) if (r.status === 'rejected') rejected += recipientCount(r) - r.clientIds.length;
  }
  for (const [id, status] of statusOf) {
    if (status === 'in_doubt') inDoubtIds.push(id);
    else if (status === 'not_sent') notSent.push(id);
    else if (status === 'rejected') rejected += 1;
  }
  const clientIds = includeInDoubt ? [...inDoubtIds, ...notSent] : notSent;
  return { clientIds, notSent: notSent.length, inDoubt: inDoubtIds.length, inDoubtIncluded: includeInDoubt, rejected, any: clientIds.length > 0, ...(variantOf.size > 0 ? { variantOf } : {}) };
}

/** An audience sent in one request per variant: the requests not sent (and those in doubt, when included) go again. */
function remainingAudiences(results: readonly BatchResult[], audience: string, includeInDoubt: boolean): Remaining {
  const count = (status: BatchResult['status']) => results.filter((r) => r.status === status).length;
  const audiences = results.filter((r) => r.status === 'not_sent' || (includeInDoubt && r.status === 'in_doubt')).map((r) => r.variant ?? null);
  return { audience, notSent: count('not_sent'), inDoubt: count('in_doubt'), inDoubtIncluded: includeInDoubt, rejected: count('rejected'), any: audiences.length > 0, audiences };
}

/** Where a run went, as its journal says: app ID and base URL (a journal of 0.2 may have only the host). */
export function sameDestination(header: HeaderRecord, appId: string, baseUrl: string): boolean {
  if (header.app_id !== appId) return false;
  return header.base_url !== undefined ? header.base_url === baseUrl : `https://${header.host}` === baseUrl;
}

/**
 * The newest journal in `dir` that used `--once <key>` for the same kind of run (a dry run's key never stands
 * for a send), the same app and the same destination (docs/behaviour.md#once): a rehearsal against the
 * emulator never stands for the real send. Reads only each journal's first line.
 */
export function findOnceRun(dir: string, key: string, dryRun: boolean, destination: { appId: string; baseUrl: string }): { path: string; header: HeaderRecord } | undefined {
  // Every journal's header is read (a new key is in none): by name, no journal stat-ed first.
  for (const run of listRunNames(dir)) {
    const seen = anyHeader(run.file ?? run.path);
    if (seen?.once !== key) continue;
    // A journal that holds the key but cannot be read as a run may stand for a send: sending again could reach
    // its recipients twice, so the key is refused until the journal is restored or moved away.
    const problem = headerProblem(seen);
    if (problem) throw usageError(`${onceFlag(key)}: ${run.path} holds this key but cannot be read as a run: ${problem}`, 'restore the journal as pushctl wrote it, or move it out of the journal directory if it is no run of yours');
    const header = seen as HeaderRecord;
    if (header.dry_run === dryRun && sameDestination(header, destination.appId, destination.baseUrl)) return { path: run.path, header };
  }
  return undefined;
}
