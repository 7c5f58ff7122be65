// The option groups the commands share, as commander options: the shape of each flag, never its value.
// Values are checked by each command's options schema (commands/<name>/options.ts), the one place they are bounded.
import { Option, type Command } from 'commander';
import { regionNames } from '../../settings/regions.js';
import { joinProfiles } from './target-list.js';

export const collect = (value: string, previous: string[] | undefined): string[] => [...(previous ?? []), value];
/**
 * An option with a fixed set of values, which --help lists and the shells complete. Not commander's
 * .choices(): that would refuse a wrong value with its own message, before pushctl's check (case-insensitive,
 * with a did-you-mean hint) gets to it.
 */
export function enumerated(flags: string, description: string, values: readonly string[]): Option {
  const option = new Option(flags, description);
  option.argChoices = [...values];
  return option;
}

export const regionOption = (description: string) => enumerated('--region <region>', description, regionNames);

export const examples = (lines: string[]) => `\nExamples:\n${lines.map((l) => `  $ ${l}`).join('\n')}\n`;

export function addMessageOptions(cmd: Command): Command {
  return cmd
    .optionsGroup('Message:')
    .option('-f, --file <path>', 'message JSON in the service\'s own shape ("-" = stdin)')
    .option('--var <key=value>', 'fill {{key}} placeholders in the file (repeatable)', collect)
    .addOption(enumerated('-t, --type <type>', 'message type', ['notification', 'data', '1', '2']))
    .option('--ttl <duration>', 'time_to_live: 3600, 90s, 15m, 6h, 2d, 1w')
    .option('--strict', 'treat warnings as errors')
    .optionsGroup('Recipients:')
    .option('--to <name>', 'a named audience of the config file ("audiences"; pushctl config lists them)')
    .option('--all', 'every device (condition.type 0)')
    .option('--client-id <id...>', 'client IDs (condition.type 2; repeatable, comma lists too)')
    .option('--client-ids-file <path>', 'client IDs, one per line, or a CSV with client_id (and language) columns ("-" = stdin)')
    .option('--country <codes>', 'ISO 3166-1 codes, e.g. US,GB (repeatable)', collect)
    .option('--language <codes>', 'language codes, e.g. en,zh-CN (repeatable)', collect)
    .option('--brand <names>', 'device brands (repeatable)', collect)
    .option('--model <names>', 'device models (repeatable)', collect)
    .option('--os-version <levels>', 'Android API levels, e.g. 33 (repeatable)', collect)
    .option('--app-version <versions>', 'app versions (repeatable)', collect)
    .optionsGroup('Notification:')
    .option('--title <text>', 'notification.title')
    // One line for both names: --help lists each option once, the alias named beside the flag it stands for.
    .option('--desc <text>', 'notification.desc (alias: --body)')
    .addOption(new Option('--body <text>', 'alias of --desc').hideHelp())
    .addOption(enumerated('--style <style>', 'notification_type 1 (system) or 3 (button)', ['system', 'button']))
    .option('--icon <url>', 'notification.icon (button style)')
    .option('--small-icon <name>', 'notification.small_icon (system style)')
    .option('--small-icon-color <#RRGGBB>', 'notification.small_icon_color (system style)')
    .option('--button-text <text>', 'notification.button_text (button style)')
    .option('--open-app', 'open the app on click (open_type "1")')
    .option('--open-url <url>', 'open a URL on click (open_type "2")')
    .option('--open-activity <name>', 'open an Activity on click (open_type "1")')
    .optionsGroup('Data:')
    .option('-d, --data <key=value>', 'a data entry (repeatable)', collect)
    .option('--data-file <path>', 'data entries from a JSON object file');
}

/** validate's reading of a report or run journal as --client-ids-file, as send's (which lists it under Delivery). */
export function addReportInputOption(cmd: Command): Command {
  return cmd
    .optionsGroup('Recipients:')
    .option('--include-in-doubt', 'with a report or run journal as --client-ids-file: its recipients in doubt too')
    .addOption(alias('--include-unknown', 'includeInDoubt'));
}

/** Where validate finds the audiences of `--to`: the settings flags that choose a config file and profile. */
export function addAudienceSourceOptions(cmd: Command): Command {
  return cmd
    .optionsGroup('Settings:')
    .option('--profile <name>', 'the profile whose audiences --to may name (env PUSHCTL_PROFILE)')
    .option('-c, --config <path>', 'config file (env PUSHCTL_CONFIG)');
}

export function addOutputOptions(cmd: Command, sends: boolean): Command {
  return cmd
    .optionsGroup('Output:')
    .option('--json', 'print one JSON document on stdout')
    .option('-q, --quiet', sends ? 'print only the message_id(s)' : 'print nothing; the exit code says valid (0) or not (3)');
}

/** `targets`: send and dry-run, where `--profile a,b` (or the flag repeated) sends to each (docs/behaviour.md#targets). */
export function addSettingsOptions(cmd: Command, targets = false): Command {
  const profile = targets
    ? new Option('--profile <names>', 'a profile of the config file; a,b (or the flag repeated) sends to each (env PUSHCTL_PROFILE)').argParser(joinProfiles)
    : new Option('--profile <name>', 'a profile of the config file (env PUSHCTL_PROFILE)');
  return cmd
    .optionsGroup('Settings:')
    .option('--app-id <id>', 'application ID (env PUSHCTL_APP_ID)')
    .option('--app-secret-file <path>', 'read the app secret from a file (env PUSHCTL_APP_SECRET)')
    .option('--app-secret-stdin', 'read the app secret from stdin')
    .addOption(regionOption('service region (env PUSHCTL_REGION)'))
    .option('--base-url <url>', 'service URL, e.g. the emulator\'s (env PUSHCTL_BASE_URL)')
    .addOption(profile)
    .option('-c, --config <path>', 'config file (env PUSHCTL_CONFIG)')
    .option('--insecure', 'allow plain http:// to a non-loopback host')
    .option('--proxy <url>', 'send through this http(s) proxy (env HTTPS_PROXY, HTTP_PROXY; NO_PROXY exempts hosts)')
    .option('--timeout <duration>', 'per-request timeout, e.g. 500ms, 10s (default 10s)');
}

export function addDeliveryOptions(cmd: Command, forMessage = true): Command {
  cmd.optionsGroup('Delivery:');
  if (forMessage) {
    cmd
      .option('--no-validate', 'send the body as assembled, without local checks')
      .option('--once <key>', 'send once per key: a re-run finds the earlier run in the journal directory and sends nothing, or finishes it');
  }
  return cmd
    .option('--include-in-doubt', 'also send to recipients in doubt (the service may already have delivered to them)')
    .option('--batch-size <n>', 'client IDs per request, at most 1000')
    .option('--concurrency <n>', 'most requests in flight at once (default: as many as the rate and latency need, up to 256)')
    .option('--rate <n>', 'requests per second, shared by all batches (default 50)')
    .option('--retry-in-doubt', 'also retry requests that may have been delivered (may double-send)')
    .option('--max-attempts <n>', 'attempts per batch for retryable failures, 1-5 (default 5)')
    .option('--report <path>', 'write a JSON report listing every client ID under its outcome')
    .option('--force', 'let --report replace an existing file that is not a report of this run')
    .option('--no-wait', 'refuse at once (exit 2) when another pushctl process owns the --once key or the run, instead of waiting for it')
    .option('--journal <path>', 'write the run journal here (default: a new file in ~/.local/state/pushctl/runs)')
    .option('--no-journal', 'keep no journal (then a killed run loses its record)')
    .addOption(alias('--include-unknown', 'includeInDoubt'))
    .addOption(alias('--retry-ambiguous', 'retryInDoubt'));
}

/** A flag's name before 0.3, kept working but no longer offered: it sets the option of today's name. */
function alias(flag: string, attribute: string): Option {
  const option = new Option(flag).hideHelp();
  option.attributeName = () => attribute;
  return option;
}

/** The flags of a command that sends a message: send and dry-run. */
export const addSendOptions = (cmd: Command): Command => addDeliveryOptions(addSettingsOptions(addOutputOptions(addMessageOptions(cmd), true), true));

/** The examples of send and dry-run, each under its own name. */
export const sendExamples = (name: string) =>
  examples([
    `pushctl ${name} --all --title "Hello" --desc "It works"`,
    `pushctl ${name} --client-id abc123 --type data -d action=sync`,
    `pushctl ${name} --country US,GB --language en --title "Sale" --open-url https://example.com`,
    `pushctl ${name} -f examples/release-announcement.json --var version=2.1.0 --var notes=Fixes --client-ids-file ids.txt --report report.json`,
    `pushctl ${name} --to my-phones --title "Hello"              # an audience of the config file`,
    `pushctl ${name} -f examples/announce-variants.json --client-ids-file examples/devices.csv --profile global,india`,
  ]);
