// `pushctl schema`: the JSON Schema of a message file (or of the --json envelope), generated from the
// validation schema, written to a file or handed to output/ for stdout.
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { ExitCode, usageError } from '../../errors.js';
import { messageJsonSchema } from '../../message/json-schema.js';
import { envelopeJsonSchema } from '../../output/envelope-schema.js';
import { printSchema, type SchemaOutcome } from '../../output/schema.js';
import type { CommandCtx } from '../shared/command.js';
import { runnable } from '../shared/runnable.js';
import { schemaOptionsSchema, type SchemaOptions } from './options.js';

export async function schema(options: SchemaOptions, ctx: Pick<CommandCtx, 'cwd'>): Promise<SchemaOutcome> {
  const text = `${JSON.stringify(options.envelope ? envelopeJsonSchema() : messageJsonSchema(), null, 2)}\n`;
  if (options.output === undefined || options.output === '-') return { exitCode: ExitCode.ok, text };
  try {
    const file = resolve(ctx.cwd, options.output);
    // An editor's settings folder (`.vscode/`, as --help shows) is often not there yet in a new project.
    await mkdir(dirname(file), { recursive: true });
    await writeFile(file, text);
  } catch (error) {
    // The path is the user's argument, so a path that cannot be written is a usage error, not a bug.
    throw usageError(`cannot write ${options.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'choose a file in a folder you can write to');
  }
  return { exitCode: ExitCode.ok, text, written: options.output };
}

export const command = runnable(schemaOptionsSchema, schema, printSchema);
