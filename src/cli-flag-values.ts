// commander gives an option that takes a value whatever argument comes next, so `--client-id --title x`
// sends "--title" as a client ID and silently drops the title. A value that looks like a flag is refused
// here, for every option that takes a value; `--client-id=--odd` still says it deliberately.
import type { Command, Option } from 'commander';
import { usageError } from './errors.js';
import { nearest } from './suggest.js';
import { flagAndValue, looksLikeFlag } from './shell-quote.js';


/** Throws a usage error when an option that needs a value is followed by something that looks like a flag. */
export function checkFlagValues(argv: readonly string[], command: Command): void {
  const options: Option[] = [];
  for (let c: Command | null = command; c; c = c.parent) options.push(...c.options);
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') return;
    const option = arg.startsWith('--') ? options.find((o) => o.long === arg) : /^-[^-]$/.test(arg) ? options.find((o) => o.short === arg) : undefined;
    if (!option?.required) continue;
    const value = argv[i + 1];
    if (value !== undefined && looksLikeFlag(value)) {
      const name = option.long ?? arg;
      throw usageError(`${arg} needs a value, but the next argument "${value}" looks like a flag`, `give ${arg} its value; if "${value}" really is the value, write ${name}=${value}`);
    }
    i++;
  }
}

/** Words a person types after a number for a duration, and the unit --ttl takes instead. */
const DURATION_UNITS: Record<string, string> = {
  s: 's', sec: 's', secs: 's', second: 's', seconds: 's',
  m: 'm', min: 'm', mins: 'm', minute: 'm', minutes: 'm',
  h: 'h', hr: 'h', hrs: 'h', hour: 'h', hours: 'h',
  d: 'd', day: 'd', days: 'd',
  w: 'w', wk: 'w', wks: 'w', week: 'w', weeks: 'w',
};


/** What each word of argv is, for the command being run: its options, their values, and operands. */
function operandsOf(argv: readonly string[], command: Command): { word: string; index: number; after?: { option: Option; value?: string } }[] {
  const options: Option[] = [];
  for (let c: Command | null = command; c; c = c.parent) options.push(...c.options);
  const path: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) path.unshift(c.name());
  const found: { word: string; index: number; after?: { option: Option; value?: string } }[] = [];
  let last: { option: Option; value?: string } | undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    if (arg === '--') break;
    if (path[0] === arg) {
      path.shift();
      continue;
    }
    if (arg.startsWith('-') && arg.length > 1) {
      const name = arg.split('=')[0]!;
      const option = name.startsWith('--') ? options.find((o) => o.long === name || o.long === `--no-${name.slice(2)}`) : options.find((o) => o.short === name);
      last = option ? { option } : undefined;
      if (option && (option.required || option.optional) && !arg.includes('=')) {
        // A variadic option (--client-id a b c) takes every word up to the next flag.
        do last = { option, value: argv[++i] };
        while (option.variadic && argv[i + 1] !== undefined && !argv[i + 1]!.startsWith('-'));
      }
      continue;
    }
    found.push({ word: arg, index: i, ...(last ? { after: last } : {}) });
    last = undefined;
  }
  return found;
}

/**
 * Words that are neither an option, an option's value, nor an argument the command takes. commander says
 * only "too many arguments for 'send'"; this names the word and the likely fix: a duration's unit typed
 * apart (`--ttl 2 days` → `--ttl 2d`), text given to no flag (`--all "Hello world"` → `--title`), or a
 * command that changes what `config` only shows.
 */
export function checkStrayArguments(argv: readonly string[], command: Command): void {
  const takes = command.registeredArguments.length;
  if (command.registeredArguments.at(-1)?.variadic) return;
  const operands = operandsOf(argv, command);
  if (operands.length <= takes) return;
  const stray = operands[takes]!;
  const names: string[] = [];
  for (let c: Command | null = command; c?.parent; c = c.parent) names.unshift(c.name());
  const name = names.join(' ');
  if (name === 'config') {
    const [verb, key, value] = operands.map((o) => o.word);
    const initFlag: Record<string, string> = { appId: '--app-id', app_id: '--app-id', region: '--region', baseUrl: '--base-url', base_url: '--base-url', profile: '--profile' };
    const flag = key !== undefined ? initFlag[key] : undefined;
    // --force: without it init refuses a file that already holds settings, and with it init replaces only
    // the settings given, keeping the others — what `config set` means.
    const next =
      verb === 'set' && flag && value !== undefined
        ? `set it with pushctl init ${flagAndValue(flag, value)} --yes --force (--force replaces that setting and keeps the others), or give ${flag} to each command`
        : verb === 'set' && /secret/i.test(key ?? '')
          ? 'store it with pushctl init --app-secret-file <path> --yes --force (--force keeps the other settings), or set PUSHCTL_APP_SECRET'
          : 'write a config file with pushctl init (it asks, or takes --app-id, --region, --base-url and --yes)';
    throw usageError(`pushctl config only shows the settings and where each came from; it takes no arguments (got ${JSON.stringify(stray.word)})`, next);
  }
  const subcommands = command.commands.map((c) => c.name());
  if (subcommands.length > 0 && !stray.after) {
    const near = nearest(stray.word, subcommands);
    throw usageError(`unknown command '${name} ${stray.word}'${near ? ` (did you mean '${name} ${near}'?)` : ''}`, `its commands: ${subcommands.map((c) => `${name} ${c}`).join(', ')}`);
  }
  const after = stray.after;
  if (after?.value !== undefined) {
    const flag = after.option.long ?? after.option.short ?? '';
    const unit = DURATION_UNITS[stray.word.toLowerCase()];
    if (unit && /^\d+$/.test(after.value)) {
      throw usageError(`${JSON.stringify(stray.word)} is not an argument of ${name}: it follows ${flag} ${after.value}`, `write the unit next to the number: ${flag} ${after.value}${unit}`);
    }
    throw usageError(`${JSON.stringify(stray.word)} is not an argument of ${name}: it follows ${flagAndValue(flag, after.value)}`, `if both words are the value, quote them: ${flagAndValue(flag, `${after.value} ${stray.word}`)}`);
  }
  const given = new Set(argv.map((a) => a.split('=')[0]));
  const textFlag = ['--title', '--desc'].find((f) => command.options.some((o) => o.long === f) && !given.has(f));
  const which = after ? ` (${after.option.long ?? after.option.short} takes no value)` : '';
  throw usageError(
    `${JSON.stringify(stray.word)} is not an argument of ${name}${which}`,
    textFlag ? `to use it as the ${textFlag.slice(2)}, give it to the flag: ${flagAndValue(textFlag, stray.word)}` : `remove it, or give it to the flag it belongs to (pushctl ${name} --help lists them)`,
  );
}
