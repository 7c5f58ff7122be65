// Answers become MCP results here, and only here: every string of a result passes the secret filter, and an
// error becomes a result with isError and the CLI's own message and hint, never a failed request.
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { CliError, ExitCode } from '../../errors.js';
import type { SecretScrubber } from '../../output/redact.js';
import type { ToolAnswer } from './tool.js';
import { boundDocument, boundText } from './bounded-answer.js';
import { dataStrings, documentInToolTerms, inToolTerms } from './tool-terms.js';

/** The same value with every string scrubbed of the secrets the scrubber knows. */
function scrubbed(value: unknown, scrubber: SecretScrubber): unknown {
  if (typeof value === 'string') return scrubber.scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubbed(item, scrubber));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(Object.entries(value).map(([key, inner]) => [key, scrubbed(inner, scrubber)]));
}

/**
 * The answer as the client reads it: said in the tools' terms (`args`, the names of the tools' arguments: no
 * flag a call cannot pass, tool-terms.ts), scrubbed of secrets, and cut to what a client reads.
 */
export function toolResult(answer: ToolAnswer, scrubber: SecretScrubber, args: ReadonlySet<string>): CallToolResult {
  // Scrubbed first, then cut to what a client reads: a cut through a secret would leave half of it unmasked.
  const { document, elided } = boundDocument(scrubbed(documentInToolTerms(answer.document, args), scrubber) as Record<string, unknown>);
  // The message's own words, where the text shows them (a run's title), are kept as written.
  const text = `${inToolTerms(answer.text, args, dataStrings(answer.document))}${answer.verbatim ?? ''}`;
  return {
    content: [{ type: 'text', text: boundText(scrubber.scrub(text), elided) }],
    structuredContent: document,
    ...(answer.isError ? { isError: true } : {}),
  };
}

/** `error: …` and `hint: …`, as the CLI prints a failure. */
export const errorLines = (error: { message: string; hint?: string }): string => `error: ${error.message}\n${error.hint ? `hint: ${error.hint}\n` : ''}`;

/** What a thrown error says to the client: a CliError's message and hint, or an internal error. */
export function errorAnswer(error: unknown): ToolAnswer {
  const expected = error instanceof CliError;
  const exitCode = expected ? error.exitCode : ExitCode.internal;
  const message = expected ? error.message : `internal error: ${error instanceof Error ? error.message : String(error)}`;
  const hint = expected ? error.hint : 'this is a bug in pushctl; run the same message with `pushctl dry-run --verbose` and report what it prints';
  const failure = { message, ...(hint ? { hint } : {}) };
  return { document: { ok: false, exit_code: exitCode, error: failure }, text: errorLines(failure), isError: true };
}
