import type * as z from 'zod/mini';
import { profileKeys, topLevelKeys } from './schema.js';
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
  return path.length === 0 ? topLevelKeys : profileKeys;
}

function unknownKey(key: string, path: readonly PathKey[]): ConfigProblem {
  const allowed = keysAllowedAt(path);
  const guess = nearest(key, allowed);
  const full = keyPath([...path, key]);
  // A profile-only key at the top level, or "profiles" inside a profile, deserves its own explanation.
  if (path.length > 0 && key === 'profiles') {
    return { text: `unknown key "${full}": profiles cannot be nested`, fix: 'move the profile to the top-level "profiles" object' };
  }
  return {
    text: `unknown key "${full}"`,
    fix: guess
      ? `did you mean "${guess}"? (rename "${key}" to "${guess}")`
      : `remove it; the keys allowed ${where(path)} are: ${allowed.join(', ')}`,
  };
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
    if (issue.code === 'invalid_type') {
      const received = typeOf(valueAt(raw, path));
      if (path.length === 0) {
        problems.push({ text: `the file must hold an object of settings, not ${received}`, fix: 'write an object such as {"appId": "…", "region": "global"}' });
      } else if (issue.expected === 'record' || issue.expected === 'object') {
        problems.push({ text: `${name} must be an object, not ${received}`, fix: path.length === 1 ? 'write "profiles": {"ci": {"appId": "…"}}' : `write "${keyPath(path)}": {"appId": "…"}` });
      } else {
        problems.push({ text: `${name} must be ${issue.expected === 'string' ? 'a string' : issue.expected}, not ${received}`, fix: `quote the value: "${String(path[path.length - 1])}": "…"` });
      }
      continue;
    }
    problems.push({ text: `${name} ${issue.message}` });
  }
  return problems;
}
