// The one-way layers are enforced by the linter (eslint.config.js), not by review: an import that goes up a
// layer, a command importing another command, or the client reaching into the emulator fails `npm run lint`.
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

const eslint = new ESLint({ cwd: process.cwd() });

/** The layer-rule messages ESLint gives a file at `filePath` (it need not exist) with one import line. */
async function layerErrors(filePath: string, specifier: string): Promise<string[]> {
  const [result] = await eslint.lintText(`import * as probe from '${specifier}';\nexport const used = probe;\n`, { filePath });
  return result!.messages.filter((m) => m.ruleId === 'import-x/no-restricted-paths').map((m) => m.message);
}

describe('layers', () => {
  it.each([
    ['src/client/probe.ts', '../commands/send/run.js', 'client and emulator may not import commands'],
    ['src/message/probe.ts', '../client/batches.js', 'message may not import client and emulator'],
    ['src/journal/probe.ts', '../input/read-client-ids.js', 'journal may not import input'],
    ['src/output/probe.ts', '../main.js', 'output may not import entries'],
    ['src/client/probe.ts', '../emulator/store.js', 'siblings'],
    ['src/commands/validate/probe.ts', '../send/run.js', 'no command imports another command'],
    ['src/commands/runs/show/probe.ts', '../../resend/options.js', 'no command imports another command'],
    ['src/commands/shared/probe.ts', '../runs/run.js', 'imports none of them'],
    ['src/commands/send/probe.ts', '../mcp/server.js', 'no command imports another command'],
    ['src/cli-probe.ts', './commands/send/run.js', 'cli.ts imports only define.ts'],
    ['src/commands/mcp/probe.ts', '../../cli.js', 'commands may not import entries'],
  ])('%s importing %s fails lint', async (file, specifier, expected) => {
    const errors = await layerErrors(file, specifier);
    expect(errors.join('\n')).toContain(expected);
  });

  it.each([
    ['src/commands/send/probe.ts', '../../client/batches.js'],
    ['src/commands/resend/probe.ts', '../shared/resend-command.js'],
    ['src/commands/mcp/probe.ts', './server.js'],
    ['src/commands/mcp/probe.ts', '../send/run.js'],
    ['src/commands/dry-run/probe.ts', '../send/options.js'],
    ['src/cli-probe.ts', './commands/send/define.js'],
    ['src/input/probe.ts', '../journal/reader.js'],
    ['src/client/probe.ts', '../message/recipients.js'],
  ])('%s importing %s is a downward arrow', async (file, specifier) => {
    expect(await layerErrors(file, specifier)).toEqual([]);
  });
});
