import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Ctx } from '../context.js';
import { ExitCode, usageError } from '../errors.js';
import { messageJsonSchema } from '../message/json-schema.js';
import { envelopeJsonSchema } from '../output/envelope-schema.js';

export interface SchemaCommandOptions {
  /** Write the schema to this file instead of stdout. */
  output?: string;
  /** The schema of the `--json` envelope instead of the message's. */
  envelope?: boolean;
}

/** Prints (or writes) the JSON Schema of a message file, generated from the validation schema. */
export async function schemaCommand(options: SchemaCommandOptions, ctx: Pick<Ctx, 'stdout' | 'stderr' | 'cwd'>): Promise<number> {
  const text = `${JSON.stringify(options.envelope ? envelopeJsonSchema() : messageJsonSchema(), null, 2)}\n`;
  if (options.output === undefined || options.output === '-') {
    ctx.stdout.write(text);
    return ExitCode.ok;
  }
  try {
    await writeFile(resolve(ctx.cwd, options.output), text);
  } catch (error) {
    // The path is the user's argument, so a path that cannot be written is a usage error, not a bug.
    throw usageError(`cannot write ${options.output}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`, 'choose a file in an existing, writable folder');
  }
  ctx.stderr.write(`wrote ${options.output}\n`);
  return ExitCode.ok;
}
