import { CliError, ExitCode } from '../errors.js';
import { nearest } from '../suggest.js';
import { parseJson } from '../message/parse-json.js';
import { describeBytes, InputInterruptedError, InputTooLargeError, readWholeFile } from '../read-whole-file.js';

/** An application the emulator knows: its ID, its secret, and whether its push SDK is disabled (21007). */
export interface EmulatorApp {
  id: string;
  secret: string;
  disabled?: boolean;
}

/** The app used when none is configured, so that `pushctl serve` alone is enough to try everything. */
export const DEMO_APP: Readonly<EmulatorApp> = Object.freeze({ id: 'demo-app', secret: 'demo-secret' });

/**
 * A problem in the emulator's configuration, with a one-line fix: the CLI's one error class (exit 6, the
 * configuration's code), so the hint travels the same way as every other.
 */
export class EmulatorConfigError extends CliError {
  constructor(message: string, hint: string) {
    super(message, ExitCode.config, hint);
    this.name = 'EmulatorConfigError';
  }
}

const FILE_SHAPE_HINT = 'write {"apps":[{"id":"my-app","secret":"my-secret","disabled":false}]} or just the array';

/** Parses an `id:secret` pair as given to `--app`; the secret may itself contain colons. */
export function parseAppSpec(spec: string): EmulatorApp {
  const colon = spec.indexOf(':');
  const id = colon < 0 ? spec.trim() : spec.slice(0, colon).trim();
  const secret = colon < 0 ? '' : spec.slice(colon + 1);
  if (colon < 0 || id === '' || secret === '') {
    throw new EmulatorConfigError(
      `--app expects id:secret, got "${spec}"`,
      'write it as --app my-app:my-secret (repeat --app for more apps)',
    );
  }
  return { id, secret };
}

/** Checks the parsed JSON of an apps file (`{"apps":[...]}` or a bare array); `source` names it in errors. */
export function parseAppsJson(json: unknown, source: string): EmulatorApp[] {
  const list = Array.isArray(json)
    ? json
    : json !== null && typeof json === 'object' && Array.isArray((json as { apps?: unknown }).apps)
      ? (json as { apps: unknown[] }).apps
      : undefined;
  if (!list) throw new EmulatorConfigError(`${source}: expected an "apps" array`, FILE_SHAPE_HINT);
  if (list.length === 0) throw new EmulatorConfigError(`${source}: the apps list is empty`, FILE_SHAPE_HINT);
  return list.map((entry, i) => {
    const where = `${source}: apps[${i}]`;
    if (entry === null || typeof entry !== 'object' || Array.isArray(entry)) {
      throw new EmulatorConfigError(`${where} is not an object`, FILE_SHAPE_HINT);
    }
    const { id, secret, disabled, ...rest } = entry as Record<string, unknown>;
    if (typeof id !== 'string' || id.trim() === '') {
      throw new EmulatorConfigError(`${where}.id must be a non-empty string`, FILE_SHAPE_HINT);
    }
    if (typeof secret !== 'string' || secret === '') {
      throw new EmulatorConfigError(`${where}.secret must be a non-empty string`, FILE_SHAPE_HINT);
    }
    if (disabled !== undefined && typeof disabled !== 'boolean') {
      throw new EmulatorConfigError(`${where}.disabled must be true or false`, FILE_SHAPE_HINT);
    }
    const unknown = Object.keys(rest);
    if (unknown.length > 0) {
      const near = nearest(unknown[0]!, ['id', 'secret', 'disabled']);
      throw new EmulatorConfigError(`${where} has unknown field "${unknown[0]}"${near ? ` (did you mean "${near}"?)` : ''}`, 'the fields are id, secret and disabled');
    }
    return disabled ? { id: id.trim(), secret, disabled } : { id: id.trim(), secret };
  });
}

/** An apps file is a few apps: anything longer is not one (`/dev/zero`). */
const MAX_APPS_FILE = 4 * 1024 * 1024;

/**
 * Reads and checks an apps file. Read as read-whole-file.ts reads: a FIFO no one writes is waited for on the
 * event loop, so `signal` (Ctrl-C) ends the wait, which a read in the thread pool never heard.
 */
export async function loadAppsFile(path: string, signal?: AbortSignal): Promise<EmulatorApp[]> {
  let text: string;
  try {
    text = (await readWholeFile(path, { maxBytes: MAX_APPS_FILE, signal })).toString('utf8');
  } catch (error) {
    if (error instanceof InputInterruptedError) throw error;
    const code = error instanceof InputTooLargeError ? `larger than ${describeBytes(MAX_APPS_FILE)}` : ((error as NodeJS.ErrnoException).code ?? 'unreadable');
    throw new EmulatorConfigError(`cannot read apps file ${path} (${code})`, 'check the path given to --apps');
  }
  let json: unknown;
  try {
    json = parseJson(text);
  } catch (error) {
    throw new EmulatorConfigError(`${path} is not valid JSON: ${(error as Error).message}`, FILE_SHAPE_HINT);
  }
  return parseAppsJson(json, path);
}

/**
 * Rejects an app no request could use (an empty ID, or no secret: every push would be 21001 or 21003), and two
 * apps with the same ID, which would make the answer depend on their order. The CLI's --app and --apps check
 * as much when they parse; a library caller's apps are checked here.
 */
export function checkApps(apps: readonly EmulatorApp[]): void {
  const seen = new Set<string>();
  for (const app of apps) {
    if (typeof app.id !== 'string' || app.id.trim() === '') throw new EmulatorConfigError('an app has an empty ID', 'give each app an ID, as in {"id":"my-app","secret":"my-secret"}');
    if (typeof app.secret !== 'string' || app.secret === '') throw new EmulatorConfigError(`app "${app.id}" has no secret`, 'give each app its secret, as in {"id":"my-app","secret":"my-secret"}');
    if (seen.has(app.id)) {
      throw new EmulatorConfigError(`app "${app.id}" is configured twice`, 'give each app ID once, in --app or in the apps file');
    }
    seen.add(app.id);
  }
}
