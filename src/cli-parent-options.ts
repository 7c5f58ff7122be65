// A parent command's own flags are not its subcommands' (`runs --limit` lists runs; `runs show` shows one).
// commander parses a parent's flags wherever they stand on the line, so `runs show <run> --limit 3` was taken
// and did nothing: it is refused here, naming the command the flag belongs to. The program's own flags
// (`--verbose`) are every command's, and are left alone.
import type { Command, Option } from 'commander';
import { usageError } from './errors.js';

/** `runs show` for the command `show` under `runs`: the words after `pushctl`. */
export function commandPath(command: Command): string {
  return command.parent?.parent ? `${commandPath(command.parent)} ${command.name()}` : command.name();
}

const namesOf = (option: Option) => [option.long, option.short].filter((n): n is string => n !== undefined);

/** Refuses a flag typed for `action` that only a parent command between it and the program declares. */
export function checkParentOptions(action: Command): void {
  const own = new Set(action.options.flatMap(namesOf));
  for (let parent = action.parent; parent?.parent; parent = parent.parent) {
    for (const option of parent.options) {
      if (namesOf(option).some((name) => own.has(name))) continue;
      if (parent.getOptionValueSource(option.attributeName()) !== 'cli') continue;
      const flag = option.long ?? option.short ?? '';
      throw usageError(`${flag} is an option of \`pushctl ${commandPath(parent)}\`, not of \`pushctl ${commandPath(action)}\``, `remove ${flag}; pushctl ${commandPath(action)} --help lists what ${commandPath(action)} takes`);
    }
  }
}
