// The shell commands the action prints, told apart from its prose (docs/behaviour.md#action): a command meant
// to be pasted into a shell is a CLI command and names the CLI's flags; the prose around it names inputs.
// A printed command is exactly (a) the body of a fenced code block whose info string is `sh` (the job
// summary), or (b) an inline code span, opened and closed by backtick runs of one length, whose content
// begins with `pushctl ` (an annotation or a log line). Everything else is prose.

const FENCED = /^(`{3,})sh\n([\s\S]*?)\n\1$/gm;
const SPAN = /(?<!`)(`+)(?!`)( ?)(pushctl [^\n]*?)\2(?<!`)\1(?!`)/g;

/** The commands printed in `text`, and `text` with each replaced by `<command>`. */
export function printedCommands(text: string): { commands: string[]; prose: string } {
  const commands: string[] = [];
  const prose = text
    .replace(FENCED, (_, _fence: string, body: string) => {
      commands.push(...body.split('\n'));
      return '<command>';
    })
    .replace(SPAN, (_, _fence: string, _pad: string, body: string) => {
      commands.push(body);
      return '<command>';
    });
  return { commands, prose };
}
