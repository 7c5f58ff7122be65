// The action's inputs, as the runner passes them (INPUT_<NAME> environment variables), turned into the
// options of the command the chosen mode runs. Pure: the environment comes in as an argument.
import { usageError } from '../errors.js';
import { profileSecretEnv } from '../commands/shared/target-list.js';
import { sendOptionsSchema } from '../commands/send/options.js';
import { parseOptions } from '../commands/shared/check-options.js';

/** What the action does: deliver, have the service check without delivering, prove credentials, or check locally. */
export type ActionMode = 'send' | 'dry-run' | 'check' | 'validate';
const MODES: readonly ActionMode[] = ['send', 'dry-run', 'check', 'validate'];

export interface ActionRequest {
  mode: ActionMode;
  /** The message and delivery options, as the CLI's flags would give them. */
  file: string;
  vars: string[];
  appId?: string;
  region?: string;
  baseUrl?: string;
  clientIdsFile?: string;
  /** A named audience of the config file (docs/behaviour.md#audiences). */
  to?: string;
  /** Several targets (docs/behaviour.md#targets): profile names joined with commas, as --profile a,b. */
  profiles?: string;
  report?: string;
  rate?: number;
  strict: boolean;
  once?: string;
  /** Where run journals live (PUSHCTL_JOURNAL_DIR); restore and save it with actions/cache for safe re-runs. */
  journalDir?: string;
  secret: string;
}

/** An input as the runner's toolkit reads it: `INPUT_` + the name upper-cased, spaces as underscores; trimmed. */
export function getInput(env: Record<string, string | undefined>, name: string): string {
  return (env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

/** A YAML 1.2 core-schema boolean, as the toolkit's getBooleanInput accepts; empty is false. */
export function booleanInput(env: Record<string, string | undefined>, name: string): boolean {
  const value = getInput(env, name);
  if (['true', 'True', 'TRUE'].includes(value)) return true;
  if (['false', 'False', 'FALSE', ''].includes(value)) return false;
  throw inputError(`the ${name} input is ${JSON.stringify(value)}, not a boolean`, `set ${name}: true or ${name}: false`);
}

/** An input the action cannot use: a usage error (exit 2) whose hint names the input to set. */
const inputError = (message: string, hint: string) => usageError(message, hint);

export function actionRequest(env: Record<string, string | undefined>): ActionRequest {
  const input = (name: string) => getInput(env, name);
  const optional = (name: string) => (input(name) === '' ? {} : { [camel(name)]: input(name) });
  const dryRun = booleanInput(env, 'dry-run');
  const modeInput = input('mode');
  if (modeInput !== '' && !MODES.includes(modeInput as ActionMode)) {
    throw inputError(`the mode input is ${JSON.stringify(modeInput)}`, `set mode: to one of ${MODES.join(', ')}`);
  }
  if (dryRun && modeInput !== '' && modeInput !== 'dry-run') {
    throw inputError(`the inputs dry-run: true and mode: ${modeInput} disagree`, 'set mode: dry-run and drop dry-run:, or drop one of them');
  }
  const mode: ActionMode = (modeInput as ActionMode) || (dryRun ? 'dry-run' : 'send');
  if (input('file') === '' && mode !== 'check') throw inputError('the file input is empty', 'set file: to the message JSON file, e.g. file: release.json');
  // "-" is stdin to the CLI; a step has none, and would wait on nothing or read nothing.
  for (const [name, example] of [['file', 'release.json'], ['client-ids-file', 'ids.txt']] as const) {
    if (input(name) === '-') throw inputError(`the ${name} input is "-", which reads stdin, and a step has none`, `set ${name}: to a file of the repository, e.g. ${name}: ${example}`);
  }
  if (input('journal-dir') === '-') {
    throw inputError('the journal-dir input is "-", which would keep the run journals in a directory named "-"', 'set journal-dir: to a directory of the workspace, e.g. journal-dir: .pushctl/runs');
  }
  const vars: string[] = [];
  for (const line of input('vars').split(/\r?\n/)) {
    const pair = line.trim();
    if (pair === '' || pair.startsWith('#')) continue;
    if (!pair.includes('=')) throw inputError(`the vars input: line ${JSON.stringify(pair)} is not key=value`, 'write one key=value per line');
    vars.push(pair);
  }
  // Bounded as `pushctl send --rate` is: by send's own options schema, the same object (test/unit/commands/shape.test.ts).
  const rate = input('rate') === '' ? undefined : parseOptions(sendOptionsSchema, { rate: input('rate') }).rate;
  const profiles = profilesInput(input('profiles'), mode, input('app-secret') !== '');
  if (input('once') !== '' && mode !== 'send' && mode !== 'dry-run') throw inputError(`the once input applies to mode send or dry-run, not ${mode}`, 'drop once:, or set mode: send');
  return {
    mode,
    file: input('file'),
    vars,
    ...optional('app-id'),
    ...optional('region'),
    ...optional('base-url'),
    ...optional('client-ids-file'),
    ...optional('to'),
    ...optional('report'),
    ...optional('once'),
    ...optional('journal-dir'),
    ...(rate !== undefined ? { rate } : {}),
    ...(profiles !== undefined ? { profiles } : {}),
    strict: booleanInput(env, 'strict'),
    secret: input('app-secret'),
  };
}

/**
 * The profiles input: names separated by commas or lines. Only send and dry-run go to several targets, and
 * never with the app-secret input, which would send one secret to every target's destination. validate and
 * check take one profile (its audiences, its credentials), as `pushctl validate|check --profile` do.
 */
function profilesInput(value: string, mode: ActionMode, secret: boolean): string | undefined {
  const names = value.split(/[\s,]+/).filter((name) => name !== '');
  if (names.length === 0) return undefined;
  if (mode !== 'send' && mode !== 'dry-run' && names.length > 1) {
    throw inputError(`mode ${mode} takes one profile, not ${names.length} (${names.join(', ')})`, `give each profile a step of its own (profiles: ${names[0]!}), or set mode: send to send to all of them`);
  }
  if (secret && names.length > 1) {
    throw inputError(
      `inputs app-secret and profiles: ${names.join(', ')} disagree: one secret would go to every target's destination`,
      `drop app-secret: and give each profile its own secret in the step's env (${names.map(profileSecretEnv).join(', ')})`,
    );
  }
  return names.join(',');
}

const camel = (name: string) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** The mode the inputs ask for, when they name one the action has (for the words of a refusal). */
export function requestedMode(env: Record<string, string | undefined>): ActionMode | undefined {
  const mode = getInput(env, 'mode');
  if (mode === '') return ['true', 'True', 'TRUE'].includes(getInput(env, 'dry-run')) ? 'dry-run' : 'send';
  return MODES.includes(mode as ActionMode) ? (mode as ActionMode) : undefined;
}
