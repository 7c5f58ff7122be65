// A finding about recipients that a named audience chose (`--to uk-users`, docs/behaviour.md#audiences) is
// fixed in the config file, not on the command line: its fix names the audience and the file. Without it,
// `"UK" is not an ISO 3166-1 alpha-2 country code — use GB` sent a newcomer looking for a --country they
// never typed. Pure.
import type { MessageIssue, NamedAudience } from './types.js';

/** The issue's path without a variant's prefix (`variants.fr: condition...` → `condition...`). */
const bodyPath = (path: string) => path.replace(/^variants\.[^:]+: /, '');

/** Whether `path` lies within one of the audience's fields (`condition.targeting.country[0]` in `condition.targeting.country`). */
function within(path: string, fields: readonly string[]): boolean {
  const inBody = bodyPath(path);
  return fields.some((field) => inBody === field || inBody.startsWith(`${field}[`) || inBody.startsWith(`${field}.`));
}

/** `issues` with the fix of each one the audience's fields caused naming the audience and its file. */
export function pointToAudience(issues: MessageIssue[], audience: NamedAudience | undefined): MessageIssue[] {
  const fields = audience?.fields;
  if (audience === undefined || fields === undefined || fields.length === 0) return issues;
  const where = `in audience "${audience.name}" of ${audience.file}`;
  return issues.map((issue) => (within(issue.path, fields) ? { ...issue, fix: issue.fix ? `${issue.fix} ${where}` : `change it ${where}` } : issue));
}
