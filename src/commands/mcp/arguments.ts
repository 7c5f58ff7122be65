// A tool's arguments, checked by its zod schema before anything runs. What is wrong becomes a usage error
// naming the argument and the next step, the way the CLI names a flag: a result the client's model can act on.
import type * as z from 'zod/mini';
import { usageError } from '../../errors.js';
import { nearest } from '../../suggest.js';

type Issue = z.core.$ZodIssue;

const kindOf = (value: unknown) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value);

/** The value an issue is about, found in the arguments by its path (zod/mini does not keep it). */
const valueAt = (given: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>((value, key) => (value !== null && typeof value === 'object' ? (value as Record<PropertyKey, unknown>)[key] : undefined), given);

function describe(issue: Issue, given: unknown, known: readonly string[]): string {
  const input = valueAt(given, issue.path);
  const at = issue.path.length > 0 ? issue.path.map(String).join('.') : 'the arguments';
  switch (issue.code) {
    case 'unrecognized_keys':
      return issue.keys
        .map((key) => {
          const near = nearest(key, known);
          return `unknown argument "${key}"${near ? ` (did you mean "${near}"?)` : ''}`;
        })
        .join('; ');
    case 'invalid_type': {
      // A record is an object to whoever writes the arguments.
      // A number where a whole one is wanted (zod calls both "number"): "must be a number, got number" said
      // nothing of 1.5, or of 1e400 (Infinity).
      if ((issue.expected === 'number' || issue.expected === 'int') && typeof input === 'number') return `${at} must be a whole number, got ${String(input)}`;
      const expected = issue.expected === 'record' ? 'object' : issue.expected === 'int' ? 'whole number' : issue.expected;
      return `${at} must be ${expected === 'object' || expected === 'array' ? `an ${expected}` : `a ${expected}`}, got ${kindOf(input)}`;
    }
    case 'invalid_value':
      return `${at} must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(input)}`;
    case 'invalid_union': {
      // A choice of values (`type`: "notification", "data", 1 or 2) reads as one list, as an enum's does.
      const branches = issue.errors.map((errors) => errors[0]);
      const values = branches.every((b) => b?.code === 'invalid_value') ? branches.flatMap((b) => (b?.code === 'invalid_value' ? b.values : [])) : [];
      if (values.length > 0) return `${at} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(input)}`;
      return `${at} has the wrong type (${kindOf(input)}): see the tool's inputSchema`;
    }
    default:
      // The schemas' own messages read "<what is wrong>: <the next step>".
      return `${at}: ${issue.message}`;
  }
}

/**
 * A value of the wrong JSON type whose meaning is plain, written as the argument takes it: a string where a
 * list goes is a list of one, "yes" where a boolean goes is true, "5" where a number goes is 5, a string
 * holding a JSON object is that object. Undefined when the value says nothing of what was meant.
 */
function asMeant(issue: Issue, given: unknown): string | undefined {
  if (issue.code !== 'invalid_type' || issue.path.length === 0) return undefined;
  const input = valueAt(given, issue.path);
  const at = issue.path.map(String).join('.');
  const key = JSON.stringify(String(issue.path.at(-1)));
  if (issue.expected === 'array' && (typeof input === 'string' || typeof input === 'number')) return `give ${at} as an array: ${key}: [${JSON.stringify(input)}]`;
  if (issue.expected === 'boolean' && (typeof input === 'string' || typeof input === 'number')) {
    const yes = typeof input === 'number' ? input !== 0 : /^(true|yes|y|on|1)$/i.test(input.trim());
    const no = typeof input === 'string' && /^(false|no|n|off|0)$/i.test(input.trim());
    return yes || no || typeof input === 'number' ? `give ${at} as a JSON boolean: ${key}: ${yes}` : undefined;
  }
  if ((issue.expected === 'number' || issue.expected === 'int') && typeof input === 'string' && /^\s*-?\d+(\.\d+)?\s*$/.test(input)) {
    return `give ${at} as a JSON number: ${key}: ${Number(input)}`;
  }
  if ((issue.expected === 'object' || issue.expected === 'record') && typeof input === 'string') {
    try {
      const parsed: unknown = JSON.parse(input);
      if (parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)) return `give ${at} as a JSON object, not a string that holds one: ${key}: ${JSON.stringify(parsed)}`;
    } catch {
      // Not JSON: nothing to say of what was meant.
    }
  }
  return undefined;
}

/** The checked arguments, or a usage error about the first thing wrong with them. */
export function parseArguments<T>(schema: z.ZodMiniType<T>, given: unknown, tool: string, known: readonly string[]): T {
  const parsed = schema.safeParse(given ?? {});
  if (parsed.success) return parsed.data;
  const [issue] = parsed.error.issues;
  const takes = known.length > 0 ? `${tool} takes ${known.join(', ')} (see its inputSchema)` : `${tool} takes no arguments: call it with {}`;
  throw usageError(`${tool}: ${issue ? describe(issue, given ?? {}, known) : 'the arguments are invalid'}`, (issue && asMeant(issue, given ?? {})) ?? takes);
}
