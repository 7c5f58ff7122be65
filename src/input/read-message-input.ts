// The I/O half of message assembly: reads the files and stdin the flags name, then hands their text
// to the pure assembleMessage.
import { createReadStream, fstatSync, openSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { ClientIdCollector } from '../client/client-id-store.js';
import type { ClientIdList } from './read-client-ids.js';
import type { ClientIdFeed } from './client-id-feed.js';
import type { Ctx } from '../context.js';
import { ClientIdError, invalidMessageError, usageError } from '../errors.js';
import type { AssembleInput, MessageFlags } from '../message/assemble.js';
import { decodeUtf8 } from './decode-utf8.js';
import { readWholeFile } from '../read-whole-file.js';

export interface MessageInputOptions extends MessageFlags {
  file?: string;
  dataFile?: string;
  clientIdsFile?: string;
  /** With a report or journal as --client-ids-file: take its unknown (in-doubt) IDs too. */
  includeUnknown?: boolean;
  /** Hidden alias of --desc. */
  body?: string;
  appSecretStdin?: boolean;
}

export interface ReadInputOptions {
  /**
   * A long client-ID list may be returned while it is still read (a growing `recipients.ids`), so a send can
   * start before the end: only where a journal records the plan as it grows.
   */
  stream?: boolean;
}

async function readStdinBytes(stdin: Ctx['stdin']): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}

async function readText(path: string, what: string, ctx: Pick<Ctx, 'stdin' | 'cwd'>): Promise<string> {
  let bytes: Buffer;
  if (path === '-') bytes = await readStdinBytes(ctx.stdin);
  else {
    try {
      bytes = await readWholeFile(resolve(ctx.cwd, path));
    } catch (error) {
      throw unreadable(error, what, path);
    }
  }
  return decodeUtf8(bytes, `${what} ${path === '-' ? 'stdin' : path}`, FLAG_OF[what]!);
}

const FLAG_OF: Record<string, string> = { 'message file': '-f/--file', 'data file': '--data-file', 'client ID file': '--client-ids-file' };

function unreadable(error: unknown, what: string, path: string) {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
  return invalidMessageError(`cannot read ${what} ${path}: ${why}`, `check the path given to ${FLAG_OF[what]}`);
}

/**
 * Streams a client-ID file line by line, so a file of millions of IDs is never one big string.
 * A report written by `--report` is accepted too: its unknown and not_sent IDs are the ones read.
 */
async function readClientIdFile(path: string, ctx: Pick<Ctx, 'stdin' | 'cwd'>, collector: ClientIdCollector, includeUnknown: boolean, stream: boolean): Promise<ClientIdList | ClientIdFeed> {
  const { feedClientIds } = await import('./client-id-feed.js');
  const options = { includeUnknown, ...(stream ? {} : { streamAfter: Infinity }) };
  if (path === '-') return feedClientIds(ctx.stdin, collector, options);
  const full = isAbsolute(path) ? path : resolve(ctx.cwd, path);
  // Opened first so a missing file is a clear message, not a stream error. Bytes, not text: the collector
  // takes plain ASCII lines without making a string of them.
  let fd: number;
  try {
    fd = openSync(full, 'r');
  } catch (error) {
    throw unreadable(error, 'client ID file', path);
  }
  // Its size lets the collector size its tables once (0 for a pipe: no hint).
  collector.expectBytes(fstatSync(fd).size);
  // Read whole: big pieces, fewer trips to the thread pool. Sent while read: smaller ones, so the first
  // request waits for a quarter of the IDs it would otherwise (docs/behaviour.md#performance: the first request at 0.3 s).
  return feedClientIds(createReadStream(full, { fd, highWaterMark: stream ? 1 << 18 : 1 << 20 }), collector, options);
}

export async function readMessageInput(options: MessageInputOptions, ctx: Pick<Ctx, 'stdin' | 'cwd'>, read: ReadInputOptions = {}): Promise<AssembleInput> {
  const stdinUsers = [options.file === '-' && '--file -', options.dataFile === '-' && '--data-file -', options.clientIdsFile === '-' && '--client-ids-file -', options.appSecretStdin && '--app-secret-stdin'].filter(Boolean);
  if (stdinUsers.length > 1) throw usageError(`${stdinUsers.join(' and ')} both read stdin`, 'give one of them a file path instead');
  if (options.body !== undefined && options.desc !== undefined) throw usageError('--body and --desc set the same field', 'use one of them');

  const flags: MessageFlags = { ...options, ...(options.body !== undefined ? { desc: options.body } : {}) };
  const input: AssembleInput = { flags };
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
    const list = options.clientIdsFile !== undefined ? await readClientIdFile(options.clientIdsFile, ctx, collector, options.includeUnknown === true, stream) : collector.result();
    // Repeats in a list still being read are counted at its end (the send's notes say how many).
    input.recipients = 'growing' in list ? { ids: list, duplicates: 0 } : list;
  }
  return input;
}
