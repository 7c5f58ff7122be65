// Every command has gh's shape (STYLE.md, "The shape to move to"): src/commands/<name>/ with options.ts (its
// one zod schema), define.ts (its commander flags) and run.ts (its run, loaded on demand); and the GitHub
// Action builds send's options through the very schema `pushctl send` uses.
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { commandDefinitions } from '../../../src/cli.js';
import type { CommandDefinition } from '../../../src/commands/shared/command.js';
import { sendOptionsSchema } from '../../../src/commands/send/options.js';
import { dryRunOptionsSchema } from '../../../src/commands/dry-run/options.js';
import { parseOptions } from '../../../src/commands/shared/check-options.js';
import { actionRequest } from '../../../src/action/inputs.js';
import { thrownBy } from '../../helpers/cli-error.js';

/** Every command of the program, with the folder its name gives it (`runs show` → runs/show). */
function everyCommand(definitions: readonly CommandDefinition[], parent: string[] = []): { path: string[]; definition: CommandDefinition }[] {
  return definitions.flatMap((definition) => {
    const path = [...parent, definition.name];
    return [{ path, definition }, ...everyCommand(definition.subcommands ?? [], path)];
  });
}

const commands = everyCommand(commandDefinitions());
const folder = (path: string[]) => join('src', 'commands', ...path);

const errorOf = thrownBy;

describe('every command has the shape of STYLE.md', () => {
  it('the program lists every command, subcommands included', () => {
    expect(commands.map((c) => c.path.join(' '))).toEqual(['validate', 'send', 'dry-run', 'resend', 'serve', 'init', 'config', 'check', 'runs', 'runs show', 'schema', 'mcp', 'completion']);
  });

  it.each(commands.map((c) => [c.path.join(' '), c] as const))('%s: options.ts, define.ts and run.ts in its folder', async (_name, { path, definition }) => {
    for (const file of ['options.ts', 'define.ts', 'run.ts']) expect(existsSync(join(folder(path), file)), `${folder(path)}/${file}`).toBe(true);
    // define.ts exports the very definition the program lists.
    const defined = Object.values(await import(/* @vite-ignore */ resolve(folder(path), 'define.ts')));
    expect(defined).toContain(definition);
    // The definition loads run.ts's command.
    const { command } = (await import(/* @vite-ignore */ resolve(folder(path), 'run.ts'))) as { command: unknown };
    expect(await definition.load()).toBe(command);
  });
});

describe('send, dry-run and the GitHub Action share one options schema', () => {
  it('dry-run takes send\'s schema itself, not a copy', () => {
    expect(dryRunOptionsSchema).toBe(sendOptionsSchema);
  });

  it.each([['100001'], ['-1'], ['5x'], ['2.5']])('a rate of %s: the action refuses it with the words --rate gets', (rate) => {
    const cli = errorOf(() => parseOptions(sendOptionsSchema, { rate }));
    const action = errorOf(() => actionRequest({ INPUT_FILE: 'message.json', INPUT_RATE: rate }));
    expect(action.message).toBe(cli.message);
    expect(action.hint).toBe(cli.hint);
    expect(cli.message).toContain('--rate');
  });

  it('a good rate is the number both use', () => {
    expect(actionRequest({ INPUT_FILE: 'message.json', INPUT_RATE: '0' }).rate).toBe(parseOptions(sendOptionsSchema, { rate: '0' }).rate);
  });
});
