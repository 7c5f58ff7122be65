// A config file that does not parse is described by its name, line and column only. The parsers' own
// messages quote the file (a code frame, "while parsing '{ "appSecret": ...'"), and a config file is where
// a secret lives, so none of their text is repeated.
import { readFileSync } from 'node:fs';
import { configError, type CliError } from '../errors.js';
import { firstErrorOffset, lineAndColumn, withoutBom } from '../message/parse-json.js';

interface YamlMark {
  line: number;
  column: number;
}

/** The configError (exit 6) for a config file that cosmiconfig could not parse or load. */
export async function configSyntaxError(filepath: string, error: unknown): Promise<CliError> {
  const hint = 'fix the syntax, or run pushctl init --force to rewrite it';
  const mark = (error as { mark?: YamlMark } | undefined)?.mark;
  if (mark && typeof mark.line === 'number') {
    // js-yaml counts from 0; its `reason` ("bad indentation of a mapping entry") quotes nothing.
    const reason = (error as { reason?: unknown }).reason;
    const what = typeof reason === 'string' && reason !== '' ? reason : 'invalid YAML';
    return configError(`cannot parse config file ${filepath}: ${what} at line ${mark.line + 1}, column ${mark.column + 1}`, hint);
  }
  if (/^(JSON Error|SyntaxError)/.test(error instanceof Error ? `${error.message}` : '') || /\.json$/.test(filepath)) {
    const text = readTextOrUndefined(filepath);
    if (text !== undefined) {
      const source = withoutBom(text);
      const { line, column } = lineAndColumn(source, firstErrorOffset(source));
      return configError(`cannot parse config file ${filepath}: invalid JSON at line ${line}, column ${column}`, hint);
    }
  }
  // A JavaScript config that throws: its message may quote its own source, so only the kind is named.
  const kind = error instanceof Error ? error.name : 'error';
  return configError(`cannot load config file ${filepath}: it throws ${kind}`, `run node ${filepath} to see where, or ${hint}`);
}

function readTextOrUndefined(filepath: string): string | undefined {
  try {
    return readFileSync(filepath, 'utf8');
  } catch {
    return undefined;
  }
}
