// What a send owns before it reads what earlier runs did (docs/behaviour.md#ownership): its run id and
// family lock, with --once the key, and what the run found with that key left to send.
import type { RunState } from '../../journal/read-run.js';
import type { HeaderRecord } from '../../journal/records.js';
import type { Remaining } from './resume.js';
import type { PushMessage } from '../../message/types.js';
import type { SkippedRun } from '../../output/skipped-run.js';

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
