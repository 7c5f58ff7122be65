// Turns zod's issues into the lines a person reads: a JSON path, the rule broken, and a fix.
import type { MessageIssue } from './types.js';
import { KNOWN_FIELDS } from './schema.js';
import { nearest } from '../suggest.js';

/** Minimal view of a zod 4 issue: only the fields this module reads. */
export interface RawIssue {
  code?: string;
  path: PropertyKey[];
  message: string;
  input?: unknown;
  expected?: string;
  keys?: string[];
  values?: unknown[];
  params?: Record<string, unknown>;
  /** too_big / too_small: the bound broken. */
  maximum?: number | bigint;
  minimum?: number | bigint;
}

/** `['condition', 'targeting', 'country', 2]` → `condition.targeting.country[2]`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else if (typeof part === 'string' && /^[A-Za-z_$][\w$]*$/.test(part)) out += out ? `.${part}` : part;
    else out += `[${JSON.stringify(String(part))}]`;
  }
  return out;
}

// A number past a double's range (1e400) parses as Infinity, which JSON.stringify writes as null.
const describeType = (v: unknown): string =>
  v === null ? 'null' : Array.isArray(v) ? 'an array' : typeof v === 'object' ? 'an object' : typeof v === 'number' && !Number.isFinite(v) ? 'a number too large to hold' : `the ${typeof v} ${JSON.stringify(v)}`;

const FIXES_FOR_MISSING: Record<string, string> = {
  type: 'add "type": 1 (notification) or 2 (data), or pass --type',
  time_to_live: 'add "time_to_live" in seconds, or pass --ttl (e.g. 1h)',
  condition: 'add "condition", or pass --all, --client-id or a targeting flag such as --country',
  'condition.type': 'add "type": 0 (all), 1 (targeting) or 2 (client IDs) to condition',
};

export function toMessageIssues(all: readonly RawIssue[]): MessageIssue[] {
  // A named rule says more than zod's bare bound on the same value (time_to_live's range): keep only it.
  const ruled = new Set(all.filter((i) => i.code === 'custom').map((i) => formatPath(i.path)));
  const issues = all.filter((i) => !((i.code === 'too_big' || i.code === 'too_small') && ruled.has(formatPath(i.path))));
  return issues.flatMap((issue): MessageIssue[] => {
    const path = formatPath(issue.path);
    if ((issue.code === 'invalid_type' || issue.code === 'invalid_value') && issue.input === undefined) {
      return [{ path, rule: 'required', message: 'is required', fix: FIXES_FOR_MISSING[path] ?? `add ${path}` }];
    }
    switch (issue.code) {
      case 'unrecognized_keys':
        return (issue.keys ?? []).map((key) => unknownField(path, key, formatPath([...issue.path, key])));
      case 'invalid_type': {
        // A number or boolean where a string belongs reaches the rules only as the emulator judges a body
        // (pushctl converts its own): the service takes the string.
        const unquoted = issue.expected === 'string' && (typeof issue.input === 'number' || typeof issue.input === 'boolean');
        if (path.startsWith('data') && issue.expected === 'string' && !unquoted) {
          return [{ path, rule: 'data-value', message: `must be a string, number or boolean, not ${describeType(issue.input)}`, fix: 'data values are flat strings; encode nested content as JSON text' }];
        }
        const expected = issue.expected === 'int' || path === 'time_to_live' ? 'a whole number' : issue.expected === 'object' || issue.expected === 'array' ? `an ${issue.expected}` : `a ${issue.expected}`;
        const quoted = typeof issue.input === 'string' && /^-?\d+$/.test(issue.input) && (issue.expected === 'int' || issue.expected === 'number');
        const fix = quoted ? `write ${issue.input} without quotes` : unquoted ? `write "${String(issue.input)}" in quotes` : undefined;
        return [{ path, rule: path.startsWith('data') ? 'data-value' : 'type', message: `must be ${expected}, not ${describeType(issue.input)}`, ...(fix ? { fix } : {}) }];
      }
      case 'invalid_value': {
        const quotedNumber = typeof issue.input === 'string' && (issue.values ?? []).includes(Number(issue.input));
        const unquotedString = typeof issue.input === 'number' && (issue.values ?? []).includes(String(issue.input));
        const fix = quotedNumber ? `write ${String(issue.input)} without quotes` : unquotedString ? `write "${String(issue.input)}" in quotes` : undefined;
        return [{ path, rule: 'value', message: `${issue.message}, not ${describeType(issue.input)}`, ...(fix ? { fix } : {}) }];
      }
      case 'too_big':
      case 'too_small': {
        // zod/mini's text here is only "Invalid input" (a number beyond 2^53 for an int): name the bound.
        const bound = issue.code === 'too_big' ? `at most ${String(issue.maximum)}` : `at least ${String(issue.minimum)}`;
        return [{ path, rule: 'range', message: `must be ${bound}, not ${describeType(issue.input)}` }];
      }
      case 'custom': {
        const fix = issue.params?.fix;
        return [{ path, rule: String(issue.params?.rule ?? 'custom'), message: issue.message, ...(typeof fix === 'string' ? { fix } : {}) }];
      }
      default:
        return [{ path, rule: issue.code ?? 'invalid', message: issue.message }];
    }
  });
}

/** An unknown field, with the nearest known name at that level, or the place where that name belongs. */
function unknownField(parent: string, key: string, path: string): MessageIssue {
  const here = KNOWN_FIELDS[parent];
  const close = here ? nearest(key, here) : undefined;
  if (close) return { path, rule: 'unknown-field', message: `unknown field "${key}"`, fix: `did you mean "${close}"?` };
  // A field written at the wrong level ("title" at the top) is a common slip: point to where it belongs.
  for (const [object, fields] of Object.entries(KNOWN_FIELDS)) {
    const elsewhere = object === parent ? undefined : nearest(key, fields);
    if (elsewhere) {
      const where = object ? `${object}.${elsewhere}` : elsewhere;
      return { path, rule: 'unknown-field', message: `unknown field "${key}"`, fix: `did you mean "${where}"? (${object ? `it belongs in ${object}` : 'it belongs at the top level'})` };
    }
  }
  return { path, rule: 'unknown-field', message: `unknown field "${key}"`, fix: here ? `known fields here: ${here.join(', ')}` : 'remove it' };
}
