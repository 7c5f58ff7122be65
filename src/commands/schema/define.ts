// The flags of `pushctl schema` and its help.
import type { CommandDefinition } from '../shared/command.js';
import { examples } from '../shared/flags.js';

export const schemaCommand: CommandDefinition = {
  name: 'schema',
  description: 'print the JSON Schema of a message file, for editors ("$schema" in the file)',
  define: (cmd) =>
    cmd
      .option('-o, --output <path>', 'write the schema to a file instead of stdout')
      .option('--envelope', 'the schema of the --json output of every command instead')
      .addHelpText('after', examples(['pushctl schema > message.schema.json', 'pushctl schema --output .vscode/pushctl-message.schema.json', 'pushctl schema --envelope > envelope.schema.json'])),
  load: async () => (await import('./run.js')).command,
};
