// `pushctl mcp`'s flags → McpOptions, through its commander definition and its one schema: a table, as gh
// tests its commands' options.
import { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { addSettingsOptions } from '../../../src/commands/shared/flags.js';
import { defineMcp } from '../../../src/commands/mcp/define.js';
import { mcpOptionsSchema } from '../../../src/commands/mcp/options.js';
import { checkOptions } from '../../../src/commands/shared/check-options.js';
import { CliError } from '../../../src/errors.js';

function parse(argv: string[]): unknown {
  let options: unknown;
  const cmd = defineMcp(addSettingsOptions(new Command('mcp')))
    .exitOverride()
    .action((opts: unknown) => {
      options = opts;
    });
  cmd.parse(argv, { from: 'user' });
  checkOptions(mcpOptionsSchema, options);
  return options;
}

describe('pushctl mcp options', () => {
  it.each([
    [[], {}],
    [['--allow-send'], { allowSend: true }],
    [['--profile', 'staging', '--base-url', 'http://127.0.0.1:8787'], { profile: 'staging', baseUrl: 'http://127.0.0.1:8787' }],
    [['--app-id', 'a', '--app-secret-file', 's.txt', '--timeout', '5s', '--insecure'], { appId: 'a', appSecretFile: 's.txt', timeout: '5s', insecure: true }],
  ])('%j → %j', (argv, expected) => {
    expect(parse(argv)).toEqual(expected);
  });

  it('refuses --app-secret-stdin, whose stdin carries the protocol, saying where the secret can come from', () => {
    const error = (() => {
      try {
        parse(['--app-secret-stdin']);
      } catch (caught) {
        return caught;
      }
    })();
    expect(error).toBeInstanceOf(CliError);
    expect((error as CliError).message).toMatch(/^--app-secret-stdin cannot be used with mcp \(its stdin carries the MCP client's messages\)/);
    expect((error as CliError).hint).toContain('PUSHCTL_APP_SECRET');
  });
});
