// Messages written for the command line name its flags and variables; in the action the user set inputs.
// Every message the action prints is said in the action's terms (docs/behaviour.md#action): its inputs, and a re-run
// of the job rather than a command on a runner that is gone when the job ends.

const FLAG_TO_INPUT: [RegExp, string][] = [
  [/--app-secret-file(?: <path>)?|--app-secret-stdin|PUSHCTL_APP_SECRET|the appSecret key/g, 'the app-secret input'],
  [/--app-id(?: <id>)?|PUSHCTL_APP_ID/g, 'the app-id input'],
  [/--base-url(?: <url>)?|PUSHCTL_BASE_URL/g, 'the base-url input'],
  [/--region(?: <region>)?|PUSHCTL_REGION/g, 'the region input'],
  [/--var(?: key=value)?/g, 'the vars input'],
  [/--client-ids-file(?: <path>)?/g, 'the client-ids-file input'],
  [/--report(?: <path>)?/g, 'the report input'],
  [/--once(?: <key>)?/g, 'the once input'],
  [/--strict/g, 'the strict input'],
  [/--rate(?: <n>)?/g, 'the rate input'],
  [/PUSHCTL_JOURNAL_DIR(?: \(or --journal\))?|--journal(?: <path>)?/g, 'the journal-dir input'],
];

/** `text` with the CLI's flags and variables named as the action's inputs. */
export function inActionTerms(text: string): string {
  let out = text;
  for (const [pattern, input] of FLAG_TO_INPUT) out = out.replace(pattern, input);
  return out;
}
