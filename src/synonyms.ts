// Flags and commands other push tools (and CLIs) have, under the names pushctl gives them. Spelling distance
// alone pointed `--device` at `--desc` (one letter apart), which would put a client ID into the notification's
// text, and `configure` at `config`, which only shows settings; a newcomer's words are read for what they
// mean first, and the nearest spelling is the fallback (cli.ts).

interface Synonym {
  /** The flag meant, offered only where the command has it. */
  flag: string;
  /** Said instead of "did you mean <flag>?", when the flag meant is no rename. */
  hint?: string;
}

const clientId: Synonym = { flag: '--client-id' };
const desc: Synonym = { flag: '--desc' };
const openUrl: Synonym = { flag: '--open-url' };
// The service sends at once (docs/behaviour.md#the-service): there is no time to give it.
const instant: Synonym = { flag: '--all', hint: 'messages are instant: the service has no scheduling, so run the command when the message should go out (cron, a CI schedule).' };

const SYNONYMS: Record<string, Synonym> = {
  device: clientId,
  devices: clientId,
  'device-id': clientId,
  'device-ids': clientId,
  token: clientId,
  tokens: clientId,
  'registration-id': clientId,
  message: desc,
  msg: desc,
  text: desc,
  content: desc,
  url: openUrl,
  link: openUrl,
  'click-url': openUrl,
  schedule: instant,
  'send-at': instant,
  at: instant,
  delay: instant,
  // `-v` is the version of many tools and the verbosity of others: both are named.
  '-v': { flag: '--version', hint: 'Did you mean -V (--version)? --verbose shows more detail.' },
};

/**
 * What an unknown long flag most likely means, as a hint's opening sentence: "Did you mean --client-id?",
 * or the synonym's own hint; empty when the word is no known synonym or the command lacks the flag meant.
 */
export function flagSynonym(typed: string, commandFlags: readonly string[]): string {
  // A long flag by its name (`--device` → `device`); a short one as typed (`-v`, case kept: `-V` is a flag).
  const word = typed.startsWith('--') ? typed.slice(2).toLowerCase().replace(/_/g, '-') : typed;
  const synonym = Object.hasOwn(SYNONYMS, word) ? SYNONYMS[word] : undefined;
  if (synonym === undefined || !commandFlags.includes(synonym.flag)) return '';
  return synonym.hint ?? `Did you mean ${synonym.flag}?`;
}

/** Commands of other tools → pushctl's command (or flag) that does it. */
const COMMAND_SYNONYMS: Record<string, string> = {
  push: 'send',
  publish: 'send',
  notify: 'send',
  configure: 'init',
  setup: 'init',
  login: 'init',
  auth: 'init',
  status: 'check',
  doctor: 'check',
  whoami: 'check',
  verify: 'check',
  list: 'runs',
  ls: 'runs',
  history: 'runs',
  lint: 'validate',
  emulator: 'serve',
  emulate: 'serve',
  version: '--version',
};

/** "Did you mean send?" for an unknown command another tool has; empty when the word is no known synonym. */
export function commandSynonym(typed: string, commands: readonly string[]): string {
  const word = typed.toLowerCase();
  const meant = Object.hasOwn(COMMAND_SYNONYMS, word) ? COMMAND_SYNONYMS[word]! : undefined;
  if (meant === undefined || !(meant.startsWith('--') || commands.includes(meant))) return '';
  return `Did you mean ${meant}?`;
}
