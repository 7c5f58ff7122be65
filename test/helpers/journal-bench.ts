// The set-up of the tests that run the built binary against an emulator and then read, edit or forge the
// journals it wrote: one emulator per file, its app `app` with the bench's secret, and for each test a fresh
// directory (HOME and the working directory of every run) holding the journal directory.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { createEmulator, type Emulator } from '../../src/emulator/index.js';
import { cleanEnv, runCli, type CliResult } from './run-cli.js';

export interface JournalBench {
  readonly emulator: Emulator;
  /** This test's directory. */
  readonly work: string;
  /** PUSHCTL_JOURNAL_DIR, inside `work`: made by the first run that journals. */
  readonly journals: string;
  /** What every run's environment is: HOME, the secret and the journal directory, then `extra`. */
  env(extra?: Record<string, string>): Record<string, string | undefined>;
  /** The built binary, run in `cwd` (`work` unless given). */
  cli(args: string[], options?: { env?: Record<string, string>; cwd?: string }): Promise<CliResult>;
}

/** Registers the hooks; `setUp` writes what each test's directory starts with. */
export function journalBench(prefix: string, secret: string, setUp?: (work: string) => void): JournalBench {
  let emulator: Emulator | undefined;
  let work: string | undefined;
  beforeAll(async () => {
    emulator = await createEmulator({ port: 0, rate: 0, apps: [{ id: 'app', secret }] });
  });
  afterAll(() => emulator?.close());
  beforeEach(() => {
    emulator!.clear();
    const dir = mkdtempSync(join(tmpdir(), prefix));
    work = dir;
    setUp?.(dir);
    return () => rmSync(dir, { recursive: true, force: true });
  });
  const bench: JournalBench = {
    get emulator() {
      return emulator!;
    },
    get work() {
      return work!;
    },
    get journals() {
      return join(work!, 'journals');
    },
    env: (extra = {}) => cleanEnv({ HOME: bench.work, PUSHCTL_APP_SECRET: secret, PUSHCTL_JOURNAL_DIR: bench.journals, ...extra }),
    cli: (args, options = {}) => runCli(args, { env: bench.env(options.env), cwd: options.cwd ?? bench.work }),
  };
  return bench;
}
