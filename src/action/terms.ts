// Messages written for the command line name its flags and variables; in the action the user set inputs.
// Every message the action prints is said in the action's terms (docs/behaviour.md#action): its inputs, and a re-run
// of the job rather than a command on a runner that is gone when the job ends.
import type { TextSink } from '../context.js';
import { QUOTED_VALUE, quotesFlagLike, rewordOutside } from '../reword.js';

/**
 * The fixes of a message's findings offer the message flags too (`or pass --ttl`), which the action has none
 * of: its message is the file's, its recipients the file's condition or the to and client-ids-file inputs.
 * Each fix is said with the file's fields alone.
 */
type Replacement = string | ((match: string, ...groups: string[]) => string);

/** A list of tags as the JSON array a message file would hold. */
const tagArray = (tags: string) => JSON.stringify(tags.split(','));

const MESSAGE_FLAG_FIXES: [RegExp, Replacement][] = [
  [/, or pass --type\b/g, ''],
  [/, or pass --ttl \(e\.g\. 1h\)/g, ''],
  [/,? or --ttl \d+[smhdw]\b/g, ''],
  [/check the unit: --ttl takes 90s, 15m, 6h, 2d or 1w/g, 'check the unit: time_to_live is in seconds'],
  [/, or pass --all, --client-id or a targeting flag such as --country/g, ', or set the to or client-ids-file input'],
  [/ or pass --country\/--language\/\.\.\./g, ''],
  [/ or pass --client-id\b/g, ' or set the client-ids-file input'],
  [/ or pass --open-url\b/g, ''],
  [/add --title or --desc \(or "title"\/"desc" in notification\)/g, 'add "title" or "desc" in notification'],
  [/use --style system\b/g, 'use "notification_type": 1'],
  [/use --style button\b/g, 'use "notification_type": 3'],
  [/name the languages to reach instead, e\.g\. --language ([\w,-]+)/g, (_, tags) => `name the languages to reach instead, e.g. "condition": {"type": 1, "targeting": {"language": ${tagArray(tags!)}}}`],
  [/targeting without --language, with variants: /g, 'targeting without "language", with variants: '],
  [/add --language with every language to reach, e\.g\. --language ([\w,-]+)/g, (_, tags) => `add "language": ${tagArray(tags!)} to the targeting, every language to reach`],
];

/** First whole phrases (a list of ways to give one setting is one input), then single flags and variables. */
const FLAG_TO_INPUT: [RegExp, Replacement][] = [
  ...MESSAGE_FLAG_FIXES,
  // A chosen profile's own variable (read first) is set in the step's env; the input sets the other.
  [
    /set (?:(PUSHCTL_APP_SECRET_\w+) or )?PUSHCTL_APP_SECRET, pass --app-secret-file <path> or --app-secret-stdin, or put "appSecret" in .*?\(mode 600\)/g,
    (_, own?: string) => (own ? `set ${own} in the step's env, or the app-secret input to a repository secret` : 'set the app-secret input to a repository secret'),
  ],
  [/pass --app-id, set PUSHCTL_APP_ID, or put "appId" in .*?(?=;|$)/g, 'set the app-id input'],
  [/, or pass --insecure if you really mean it/g, ''],
  // A profile lives in a config file of the repository: the action runs no init and has no config input.
  [/create it with: pushctl init --profile[ =]((?:'[^']*'|\S)+) --app-id <id>, or point --config at your file/g, (_, name) => `add a config file that defines profile ${name!} to the repository (.pushctlrc.json or .pushctlrc.yaml)`],
  [/the file has no profiles; add one with: pushctl init --profile[ =]((?:'[^']*'|\S)+)/g, (_, name) => `the file has no profiles; define profile ${name!} in it`],
  // 21006's fix is a smaller batch, which the action has no input for: it sends the interface's largest. The
  // refused batches are not_sent, so a resend from a shell sends those alone.
  // (The command itself is a code span, kept as it is: this is the prose before it.)
  [/lower --batch-size \(at most (\d+) client IDs per request\); $/g, (_, most) => `the service takes fewer client IDs per request than the ${most!} the action sends, and the action has no input to lower that: from a shell, `],
  [/; resend with a lower --batch-size/g, '; resend them in smaller batches from a shell'],
  // The action has no input that retries a request in doubt.
  [/ \(--retry-in-doubt retries\)/g, ''],
  // A journal file on the runner is gone when the job ends: the run id beside it names the run.
  [/ \((?:\/|[A-Za-z]:\\)[^()\n]*\.jsonl\)/g, ''],
  // A profile's own secret variable (PUSHCTL_APP_SECRET_INDIA) is set in the step's env, as written.
  [/(?:flag |env )?(?:--app-secret-file(?: <path>)?|--app-secret-stdin|PUSHCTL_APP_SECRET(?!_)|the appSecret key)/g, 'the app-secret input'],
  [/(?:flag )?--profile(?: <names?>)?(?![\w-])/g, 'the profiles input'],
  // A report per target is written from the journal on a machine that has it, not by a step's input.
  [/drop --report, and write each target's later with pushctl runs show <run> --report <path>/g, 'drop the report input: each target\'s run has its own report, written from journal-dir'],
  // An audience is added to the config file in the repository: the action writes none.
  [/add one with: pushctl init --audience[ =].+?, or write "audiences" in the config file/g, 'write "audiences" in the config file'],
  [/(?:flag )?--to(?: <name>)?(?![\w-])/g, 'the to input'],
  [/(?:flag |env )?(?:--app-id(?: <id>)?|PUSHCTL_APP_ID)/g, 'the app-id input'],
  [/the base URL \((?:flag --base-url|env PUSHCTL_BASE_URL)\)/g, 'the base-url input'],
  [/(?:flag |env )?(?:--base-url(?: <url>)?|PUSHCTL_BASE_URL)/g, 'the base-url input'],
  [/(?:flag |env )?(?:--region(?: <region>)?|PUSHCTL_REGION)/g, 'the region input'],
  [/(?:flag )?-f\/--file|(?:flag )?--file(?: <path>)?(?![\w-])/g, 'the file input'],
  [/(?:flag )?--var(?: key=value)?(?![\w-])/g, 'the vars input'],
  [/(?:flag )?--client-ids-file(?: <path>)?/g, 'the client-ids-file input'],
  [/(?:flag )?--report(?: <path>)?(?![\w-])/g, 'the report input'],
  [/(?:flag )?--once(?: <key>)?(?![\w-])/g, 'the once input'],
  [/(?:flag )?--strict/g, 'the strict input'],
  [/(?:flag )?--rate(?: <n>)?(?![\w-])/g, 'the rate input'],
  [/(?:flag )?--dry-run/g, 'the dry-run input'],
  // The action has no journal file input and always journals: a directory is the one way.
  [/, give --journal a writable path/g, ''],
  [/,? or pass --no-journal \(then a kill loses the record\)/g, ''],
  [/PUSHCTL_JOURNAL_DIR(?: \(or --journal\))?|--journal(?: <path>)?(?![\w-])/g, 'the journal-dir input'],
];

/**
 * A command printed to be pasted into a shell: an inline code span (opened and closed by backtick runs of one
 * length) whose text begins with `pushctl `. It must run as printed, so it keeps the CLI's flags.
 */
const COMMAND_SPAN = /(?<!`)(`+)(?!`) ?pushctl [^\n]*?(?<!`)\1(?!`)/g;

/**
 * `text` with the CLI's flags and variables named as the action's inputs, but for the commands in it
 * (COMMAND_SPAN) and the values it quotes back (src/reword.ts), kept as they are.
 */
export function inActionTerms(text: string): string {
  return rewordOutside(text, COMMAND_SPAN, (prose) => rewordOutside(prose, QUOTED_VALUE, inputTerms, quotesFlagLike));
}

function inputTerms(text: string): string {
  if (text === '') return text;
  let out = text;
  for (const [pattern, input] of FLAG_TO_INPUT) out = typeof input === 'string' ? out.replace(pattern, input) : out.replace(pattern, input);
  // "set the app-id input, or the app-id input": one input said once. An example value is written as a workflow
  // writes the input ("e.g. rate: 1"), not as the flag's words ("e.g. the rate input 1").
  return out
    .replace(/(the ([\w-]+) input)((?:,? (?:or|and) |, )(?:pass |set )?the \2 input)+/g, '$1')
    .replace(/\be\.g\. the ([\w-]+) input (?=\S)/g, 'e.g. $1: ');
}

/** A sink that says every complete line in the action's terms; `flush` writes a last unfinished line. */
export function actionTermsSink(sink: TextSink): TextSink & { flush(): void } {
  let pending = '';
  return {
    write: (chunk: string) => {
      pending += chunk;
      const end = pending.lastIndexOf('\n');
      if (end < 0) return true;
      const lines = pending.slice(0, end + 1);
      pending = pending.slice(end + 1);
      return sink.write(inActionTerms(lines));
    },
    flush: () => {
      if (pending !== '') sink.write(inActionTerms(pending));
      pending = '';
    },
    ...(sink.isTTY !== undefined ? { isTTY: sink.isTTY } : {}),
  };
}
