// The flags of `pushctl mcp` and its help, nothing else: the settings flags every delivering command shares,
// and its own; cli.ts parses them all, and run.ts gets McpOptions.
import type { Command } from 'commander';
import type { CommandDefinition } from '../shared/command.js';
import { addSettingsOptions } from '../shared/flags.js';

const CLIENT_CONFIG = `{
    "mcpServers": {
      "pushctl": {
        "command": "pushctl",
        "args": ["mcp", "--base-url", "http://127.0.0.1:8787", "--app-id", "demo-app"],
        "env": { "PUSHCTL_APP_SECRET": "demo-secret" }
      }
    }
  }`;

const EXAMPLES = [
  'pushctl mcp --base-url http://127.0.0.1:8787 --app-id demo-app     # against the emulator',
  'pushctl mcp --profile staging                                      # validate and dry-run only',
  'pushctl mcp --profile production --allow-send                      # the agent may send',
];

export function defineMcp(cmd: Command): Command {
  // stdin carries the protocol: the shared flag stays, to be refused with the reason (options.ts), unoffered.
  cmd.options.find((option) => option.long === '--app-secret-stdin')?.hideHelp();
  return cmd
    .optionsGroup('Tools:')
    .option('--allow-send', 'also offer send_message, which delivers to real devices (marked destructive); without it the tools only validate, dry-run and read')
    .addHelpText(
      'after',
      `\nTools: validate_message, dry_run, list_runs, show_run, message_schema; list_inbox when the base URL is an emulator
(pushctl serve); send_message only with --allow-send. Settings, profiles, journals and --once work as in
send; the app secret comes from the environment, a config file or --app-secret-file, never from a tool call.
stdout carries only MCP messages; diagnostics go to stderr.

A client's configuration (the "mcpServers" entry for a stdio server):
  ${CLIENT_CONFIG}

Examples:
${EXAMPLES.map((line) => `  $ ${line}`).join('\n')}
`,
    );
}

export const mcpCommand: CommandDefinition = {
  name: 'mcp',
  description: 'serve validate, dry-run, runs and (with --allow-send) send to coding agents: an MCP server on stdio',
  define: (cmd) => defineMcp(addSettingsOptions(cmd)),
  load: async () => (await import('./run.js')).command,
};
