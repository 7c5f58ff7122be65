// The I/O half of message assembly: reads the files and stdin the flags name, then hands their text
// to the pure assembleMessage.
import { isAbsolute, resolve } from 'node:path';
import { ClientIdCollector } from '../client/client-id-store.js';
import type { ClientIdList } from './read-client-ids.js';
import type { ClientIdFeed } from './client-id-feed.js';
import type { Readable } from 'node:stream';
import type { Ctx } from '../context.js';
import { CliError, ExitCode, ClientIdError, invalidMessageError, usageError } from '../errors.js';
import type { AssembleInput, MessageFlags } from '../message/assemble.js';
import { decodeUtf8 } from './decode-utf8.js';
import { RecipientLanguages } from './recipient-languages.js';
import { InputInterruptedError, InputTooLargeError, describeBytes, interruptOnSignal, openInputStream, readStreamCapped, readWholeFile } from '../read-whole-file.js';

/**
 * The most a message file or a data file (or stdin for either) may hold. The service takes far smaller
 * bodies; the cap is there so that `-f /dev/zero` or an endless pipe is refused instead of filling memory.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/** What reading needs from the context; `interrupt` ends a wait for a pipe (Ctrl-C). */
type ReadCtx = Pick<Ctx, 'stdin' | 'cwd'> & Partial<Pick<Ctx, 'interrupt' | 'env'>>;

export interface MessageInputOptions extends MessageFlags {
  file?: string;
  dataFile?: string;
  clientIdsFile?: string;
  /** Where `clientIdsFile` was named, when not by --client-ids-file (an audience of the config file). */
  clientIdsFileOf?: string;
  /** With a report or journal as --client-ids-file: take its in-doubt IDs too. */
  includeInDoubt?: boolean;
  /** Hidden alias of --desc. */
  body?: string;
  appSecretStdin?: boolean;
  /** Placeholders filled from another source than --var (the action's release): see assembleMessage. */
  placeholderScopes?: AssembleInput['placeholderScopes'];
}

export interface ReadInputOptions {
  /**
   * A long client-ID list may be returned while it is still read (a growing `recipients.ids`), so a send can
   * start before the end: only where a journal records the plan as it grows.
   */
  stream?: boolean;
}

async function readText(path: string, what: string, ctx: ReadCtx): Promise<string> {
  const limits = { maxBytes: MAX_MESSAGE_BYTES, signal: ctx.interrupt };
  let bytes: Buffer;
  try {
    bytes = path === '-' ? await readStreamCapped(ctx.stdin, limits) : await readWholeFile(resolve(ctx.cwd, path), limits);
  } catch (error) {
    throw unreadable(error, what, path);
  }
  return decodeUtf8(bytes, `${what} ${path === '-' ? 'stdin' : path}`, FLAG_OF[what]!);
}

const FLAG_OF: Record<string, string> = { 'message file': '-f/--file', 'data file': '--data-file', 'client ID file': '--client-ids-file' };

/** `namedBy`: where the file was named when not by its flag (an audience of the config file), for the hint. */
function unreadable(error: unknown, what: string, path: string, namedBy?: string): CliError {
  const where = `${what} ${path === '-' ? 'from stdin' : path}`;
  if (error instanceof InputInterruptedError) return new CliError(`interrupted while waiting for the ${where}`, ExitCode.interrupted, 'nothing was sent');
  if (error instanceof InputTooLargeError) {
    return invalidMessageError(`the ${where} is larger than ${describeBytes(error.maxBytes)}, the most pushctl reads for it`, `check ${path === '-' ? 'what is piped into' : 'the path given to'} ${FLAG_OF[what]}: a message is far smaller`);
  }
  if (error instanceof CliError) return error;
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
  return invalidMessageError(`cannot read ${what} ${path}: ${why}`, namedBy !== undefined ? `check the ${namedBy}` : `check the path given to ${FLAG_OF[what]}`);
}

/**
 * Streams a client-ID file line by line, so a file of millions of IDs is never one big string.
 * A report written by `--report` is accepted too: its in_doubt and not_sent IDs are the ones read.
 */
async function readClientIdFile(path: string, ctx: ReadCtx, collector: ClientIdCollector, includeInDoubt: boolean, stream: boolean, languages: RecipientLanguages, namedBy: string | undefined): Promise<ClientIdList | ClientIdFeed> {
  // The journal reading a report or journal input needs comes with the feed, not on every message's path.
  const { feedClientIds, resendsSince } = await import('./client-id-feed.js');
  const options = { includeInDoubt, languages, laterWords: resendsSince(path, ctx.cwd, ctx.env), ...(stream ? {} : { streamAfter: Infinity }) };
  // No size cap: a list of millions of IDs is legitimate (each line is capped instead).
  let input: Readable;
  if (path === '-') input = ctx.stdin;
  else {
    // Opened first so a missing file or a directory is a clear message, not a stream error. Bytes, not text:
    // the collector takes plain ASCII lines without making a string of them. Read whole: big pieces, fewer
    // trips to the thread pool. Sent while read: smaller ones, so the first request waits for a quarter of
    // the IDs it would otherwise (docs/behaviour.md#performance: the first request at 0.3 s).
    try {
      const opened = await openInputStream(isAbsolute(path) ? path : resolve(ctx.cwd, path), { highWaterMark: stream ? 1 << 18 : 1 << 20 });
      input = opened.stream;
      // Its size lets the collector size its tables once (0 for a pipe: no hint).
      collector.expectBytes(opened.size);
    } catch (error) {
      throw unreadable(error, 'client ID file', path, namedBy);
    }
  }
  // Ctrl-C ends the wait for a slow pipe until the list (or its first part, when sent while read) is in
  // hand; from then on the delivery stops reading as it stops sending.
  const unwatch = interruptOnSignal(input, ctx.interrupt);
  try {
    return await feedClientIds(input, collector, options);
  } catch (error) {
    throw error instanceof InputInterruptedError ? unreadable(error, 'client ID file', path) : error;
  } finally {
    unwatch();
  }
}

export async function readMessageInput(options: MessageInputOptions, ctx: ReadCtx, read: ReadInputOptions = {}): Promise<AssembleInput> {
  const stdinUsers = [options.file === '-' && '--file -', options.dataFile === '-' && '--data-file -', options.clientIdsFile === '-' && '--client-ids-file -', options.appSecretStdin && '--app-secret-stdin'].filter(Boolean);
  if (stdinUsers.length > 1) throw usageError(`${stdinUsers.join(' and ')} both read stdin`, 'give one of them a file path instead');
  if (options.body !== undefined && options.desc !== undefined) throw usageError('--body and --desc set the same field', 'use one of them');

  const { placeholderScopes, ...given } = options;
  const flags: MessageFlags = { ...given, ...(options.body !== undefined ? { desc: options.body } : {}) };
  const input: AssembleInput = { flags, ...(placeholderScopes ? { placeholderScopes } : {}) };
  if (options.file !== undefined) input.file = { name: options.file, text: await readText(options.file, 'message file', ctx) };
  if (options.dataFile !== undefined) input.dataFile = { name: options.dataFile, text: await readText(options.dataFile, 'data file', ctx) };
  if (options.clientId !== undefined || options.clientIdsFile !== undefined) {
    // One collector for both sources, so repeats across them are dropped too. The collector is bundled with
    // the command (a send to a few --client-id values is common); the file reader loads only for a file.
    const collector = new ClientIdCollector();
    try {
      collector.addAll((options.clientId ?? []).flatMap((v) => v.split(',')));
    } catch (error) {
      if (!(error instanceof ClientIdError)) throw error;
      throw invalidMessageError(`--client-id: ${error.message}`, 'client IDs are printable text');
    }
    // Only a file alone streams: its plan is then the file's own order, which `pushctl resend` can check a
    // re-given input against.
    const stream = read.stream === true && options.clientId === undefined;
    // A CSV with a language column fills this as it is read: the languages travel beside the IDs.
    const languages = new RecipientLanguages();
    const list = options.clientIdsFile !== undefined ? await readClientIdFile(options.clientIdsFile, ctx, collector, options.includeInDoubt === true, stream, languages, options.clientIdsFileOf) : collector.result();
    if (!('growing' in list) && list.ids.length === 0 && options.clientIdsFile !== undefined) throw noClientIds(options.clientIdsFile, list, options.clientIdsFileOf);
    // Repeats in a list still being read are counted at its end (the send's notes say how many).
    input.recipients = 'growing' in list ? { ids: list, duplicates: 0, languages } : list;
  }
  return input;
}

/**
 * A client-ID input that yielded no ID is named with why, before the message's own rule ("condition.type 2
 * needs a non-empty client_ids ... pass --client-id") would send the user to the wrong place.
 */
function noClientIds(path: string, list: ClientIdList, namedBy: string | undefined): CliError {
  const name = namedBy !== undefined ? `${path}, the ${namedBy},` : `--client-ids-file ${path === '-' ? '- (stdin)' : path}`;
  if (list.fromReport) {
    const inDoubt = list.inDoubtLeftOut ?? 0;
    return invalidMessageError(
      `${name} has no client ID left to send: the pushctl report or run journal lists none as not sent`,
      inDoubt > 0 ? `${inDoubt} in doubt (the service may already have delivered to them): --include-in-doubt adds them, at the risk of sending twice` : 'every recipient of that run has an answer: there is nothing to send again',
    );
  }
  return invalidMessageError(`${name} holds no client ID`, 'give it one client ID per line, or a CSV whose header names a client_id column, with at least one row');
}
