import type * as z from 'zod/mini';
import { profileKeys, settingsSchemas, topLevelKeys } from './schema.js';
import { nearest } from '../suggest.js';

/** One problem in a config file, in words: what is wrong and how to fix it. */
export interface ConfigProblem {
  text: string;
  fix?: string;
}

type PathKey = PropertyKey;

function keyPath(path: readonly PathKey[]): string {
  return path.map(String).join('.');
}

function where(path: readonly PathKey[]): string {
  return path.length === 0 ? 'at the top level' : `in ${keyPath(path)}`;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'object') return 'an object';
  return `a ${typeof value}`;
}

function valueAt(root: unknown, path: readonly PathKey[]): unknown {
  let value = root;
  for (const key of path) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

/** The keys allowed in the object at `path`: the top level, or one profile. */
function keysAllowedAt(path: readonly PathKey[]): readonly string[] {
  if (path.includes('audiences')) return path.at(-1) === 'targeting' ? Object.keys(settingsSchemas().audienceTargetingSchema.shape) : ['client_ids', 'client_ids_file', 'targeting'];
  return path.length === 0 ? topLevelKeys() : profileKeys();
}

function unknownKey(key: string, path: readonly PathKey[]): ConfigProblem {
  const allowed = keysAllowedAt(path);
  const guess = nearest(key, allowed);
  const full = keyPath([...path, key]);
  // A profile-only key at the top level, or "profiles" inside a profile, deserves its own explanation.
  if (path.length > 0 && key === 'profiles') {
    return { text: `unknown key "${full}": profiles cannot be nested`, fix: 'move the profile to the top-level "profiles" object' };
  }
  // The guess is in the problem, not only its fix: of several problems only the first's fix is the hint.
  return guess
    ? { text: `unknown key "${full}" (did you mean "${guess}"?)`, fix: `rename "${key}" to "${guess}"` }
    : { text: `unknown key "${full}"`, fix: `remove it; the keys allowed ${where(path)} are: ${allowed.join(', ')}` };
}

/** The four shapes of a named audience, for a problem inside one (docs/behaviour.md#audiences). */
const AUDIENCE_SHAPES = '{"client_ids": ["…"]}, {"client_ids_file": "ids.txt"}, {"targeting": {"country": ["IN"]}} or "all"';

/**
 * A problem inside `audiences.<name>` (top level or a profile's): the union's own message is "Invalid
 * input", so the shapes it takes are named instead.
 */
function audienceProblem(issue: z.core.$ZodIssue, path: readonly PathKey[]): ConfigProblem | undefined {
  const at = path.indexOf('audiences');
  if (at < 0 || path.length <= at + 1 || (at !== 0 && !(at === 2 && path[0] === 'profiles'))) return undefined;
  const name = `"${keyPath(path.slice(0, at + 2))}"`;
  if (path.length > at + 2) return { text: `${name} at "${keyPath(path)}": ${issue.message}`, fix: `write it as one of ${AUDIENCE_SHAPES}` };
  return { text: `${name} is not an audience`, fix: `write it as one of ${AUDIENCE_SHAPES}` };
}

/**
 * Turns zod issues about a config file into readable problems. Values are never echoed: the file may
 * hold the app secret, and a wrongly typed secret is still a secret.
 */
export function describeIssues(issues: readonly z.core.$ZodIssue[], raw: unknown): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const issue of issues) {
    const path = issue.path;
    if (issue.code === 'unrecognized_keys') {
      for (const key of issue.keys) problems.push(unknownKey(key, path));
      continue;
    }
    const name = path.length === 0 ? 'the file' : `"${keyPath(path)}"`;
    const audience = audienceProblem(issue, path);
    if (audience) {
      problems.push(audience);
      continue;
    }
    if (issue.code === 'invalid_type') {
      const received = typeOf(valueAt(raw, path));
      if (path.length === 0) {
        problems.push({ text: `the file must hold an object of settings, not ${received}`, fix: 'write an object such as {"appId": "…", "region": "global"}' });
      } else if (issue.expected === 'record' || issue.expected === 'object') {
        problems.push({ text: `${name} must be an object, not ${received}`, fix: path.at(-1) === 'audiences' ? 'write "audiences": {"my-phones": {"client_ids": ["…"]}}' : path.length === 1 ? 'write "profiles": {"ci": {"appId": "…"}}' : `write "${keyPath(path)}": {"appId": "…"}` });
      } else {
        problems.push({ text: `${name} must be ${issue.expected === 'string' ? 'a string' : issue.expected}, not ${received}`, fix: `quote the value: "${String(path[path.length - 1])}": "…"` });
      }
      continue;
    }
    problems.push({ text: `${name} ${issue.message}` });
  }
  return problems;
}
