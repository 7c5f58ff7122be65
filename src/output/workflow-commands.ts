// GitHub Actions workflow commands as pure string formatters: the runner reads them from a step's stdout
// (annotations, masks) or from the files it names in GITHUB_OUTPUT and GITHUB_STEP_SUMMARY.

/** Where an annotation points; every field is optional (a value from a flag has no file position). */
export interface AnnotationProperties {
  file?: string;
  line?: number;
  col?: number;
  endLine?: number;
  endColumn?: number;
  title?: string;
}

/** Escapes a command's message, as the runner's toolkit does: `%`, CR and LF. */
export function escapeData(text: string): string {
  return text.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
}

/** Escapes a property value: the data escapes, plus `:` and `,`, which separate properties. */
export function escapeProperty(text: string): string {
  return escapeData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** `::name key=value,...::message` with both halves escaped. */
export function workflowCommand(name: string, properties: Record<string, string | number | undefined>, message: string): string {
  const props = Object.entries(properties)
    .filter(([, value]) => value !== undefined && value !== '')
    .map(([key, value]) => `${key}=${escapeProperty(String(value))}`)
    .join(',');
  return `::${name}${props ? ` ${props}` : ''}::${escapeData(message)}\n`;
}

/** An `::error` / `::warning` / `::notice` annotation line. */
export function annotation(level: 'error' | 'warning' | 'notice', message: string, properties: AnnotationProperties = {}): string {
  return workflowCommand(level, { ...properties }, message);
}

/** Tells the runner to replace `secret` with `***` in every later log line. */
export function addMask(secret: string): string {
  // Each line of a multi-line secret is masked on its own: the runner masks per command.
  return secret
    .split(/\r?\n/)
    .filter((line) => line !== '')
    .map((line) => `::add-mask::${escapeData(line)}\n`)
    .join('');
}

/**
 * One `name=value` entry for the GITHUB_OUTPUT (or GITHUB_ENV) file. Multi-line values use the heredoc
 * form with a delimiter that does not occur in the value; `delimiter` is injectable so tests are exact.
 */
export function outputEntry(name: string, value: string, delimiter = `ghadelimiter_${randomToken()}`): string {
  if (!/[\r\n]/.test(value)) return `${name}=${value}\n`;
  if (value.includes(delimiter) || name.includes(delimiter)) throw new Error(`output ${name}: the delimiter occurs in the value`);
  return `${name}<<${delimiter}\n${value}\n${delimiter}\n`;
}

function randomToken(): string {
  return globalThis.crypto.randomUUID();
}

/** A GitHub-flavoured markdown table; `|` and line breaks in cells are escaped so the table holds. */
export function markdownTable(header: readonly string[], rows: readonly (readonly (string | number)[])[]): string {
  const cell = (v: string | number) => String(v).replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
  const line = (cells: readonly (string | number)[]) => `| ${cells.map(cell).join(' | ')} |\n`;
  return line(header) + line(header.map(() => '---')) + rows.map(line).join('');
}
