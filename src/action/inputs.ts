// The action's inputs, as the runner passes them (INPUT_<NAME> environment variables), turned into the
// pushctl command line the CLI would run. Pure: the environment comes in as an argument.

export interface ActionRun {
  /** The pushctl arguments, without the secret (it travels in the environment, never in argv). */
  argv: string[];
  /** What to add to the environment the command sees. */
  env: Record<string, string>;
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
  throw new ActionInputError(`input ${name} is ${JSON.stringify(value)}, not a boolean`, `set ${name}: true or ${name}: false`);
}

export class ActionInputError extends Error {
  constructor(
    message: string,
    readonly hint: string,
  ) {
    super(message);
    this.name = 'ActionInputError';
  }
}

export function actionRun(env: Record<string, string | undefined>): ActionRun {
  const input = (name: string) => getInput(env, name);
  const dryRun = booleanInput(env, 'dry-run');
  const argv: string[] = [dryRun ? 'dry-run' : 'send', '--json'];
  const add = (flag: string, value: string) => {
    if (value !== '') argv.push(flag, value);
  };
  if (input('file') === '') throw new ActionInputError('input file is empty', 'set file: to the message JSON file, e.g. file: release.json');
  add('--file', input('file'));
  for (const line of input('vars').split(/\r?\n/)) {
    const pair = line.trim();
    if (pair === '' || pair.startsWith('#')) continue;
    if (!pair.includes('=')) throw new ActionInputError(`input vars: line ${JSON.stringify(pair)} is not key=value`, 'write one key=value per line');
    argv.push('--var', pair);
  }
  add('--app-id', input('app-id'));
  add('--region', input('region'));
  add('--base-url', input('base-url'));
  add('--client-ids-file', input('client-ids-file'));
  add('--report', input('report'));
  add('--rate', input('rate'));
  if (booleanInput(env, 'strict')) argv.push('--strict');
  const secret = input('app-secret');
  return { argv, env: secret ? { PUSHCTL_APP_SECRET: secret } : {}, secret };
}
