// The I/O half of message assembly: reads the files and stdin the flags name, then hands their text
// to the pure assembleMessage.
import { createReadStream } from 'node:fs';
import { open, readFile } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { ClientIdCollector, readClientIds, type ClientIdList } from '../client/read-client-ids.js';
import { resendClientIdsFromReport, type DeliveryReport } from '../client/report.js';
import { parseJson } from '../message/parse-json.js';
import type { Ctx } from '../context.js';
import { invalidMessageError, usageError } from '../errors.js';
import type { AssembleInput, MessageFlags } from '../message/assemble.js';

export interface MessageInputOptions extends MessageFlags {
  file?: string;
  dataFile?: string;
  clientIdsFile?: string;
  /** Hidden alias of --desc. */
  body?: string;
  appSecretStdin?: boolean;
}

export async function readStdin(stdin: Ctx['stdin']): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stdin) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

async function readText(path: string, what: string, ctx: Pick<Ctx, 'stdin' | 'cwd'>): Promise<string> {
  if (path === '-') return readStdin(ctx.stdin);
  try {
    return await readFile(resolve(ctx.cwd, path), 'utf8');
  } catch (error) {
    throw unreadable(error, what, path);
  }
}

const FLAG_OF: Record<string, string> = { 'message file': '-f/--file', 'data file': '--data-file', 'client ID file': '--client-ids-file' };

function unreadable(error: unknown, what: string, path: string) {
  const code = (error as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such file' : code === 'EISDIR' ? 'it is a directory' : code === 'EACCES' ? 'permission denied' : String(code ?? error);
  return invalidMessageError(`cannot read ${what} ${path}: ${why}`, `check the path given to ${FLAG_OF[what]}`);
}

/** Whether a file starts with `{`: then it is a report of an earlier run, not a list of IDs. */
async function looksLikeReport(full: string): Promise<boolean> {
  const handle = await open(full, 'r');
  try {
    const { buffer, bytesRead } = await handle.read(Buffer.alloc(256), 0, 256, 0);
    return buffer.subarray(0, bytesRead).toString('utf8').trimStart().startsWith('{');
  } finally {
    await handle.close();
  }
}

/** The IDs a report says to resend (unknown and not_sent), so a half-failed run can be finished. */
async function readReport(full: string, path: string): Promise<ClientIdList> {
  let report: unknown;
  try {
    report = parseJson(await readFile(full, 'utf8'));
  } catch (error) {
    throw invalidMessageError(`--client-ids-file ${path} starts with "{" but is not a pushctl report: ${(error as Error).message}`);
  }
  const r = report as Partial<DeliveryReport>;
  if (!Array.isArray(r.unknown) || !Array.isArray(r.not_sent)) {
    throw invalidMessageError(`--client-ids-file ${path} is JSON but not a pushctl report (no "unknown" and "not_sent" lists)`, 'give a file with one client ID per line, or a report written by --report');
  }
  return new ClientIdCollector().addAll(resendClientIdsFromReport(r as DeliveryReport)).result();
}

/**
 * Streams a client-ID file line by line, so a file of millions of IDs is never one big string.
 * A report written by `--report` is accepted too: its unknown and not_sent IDs are the ones read.
 */
async function readClientIdFile(path: string, ctx: Pick<Ctx, 'stdin' | 'cwd'>): Promise<ClientIdList> {
  if (path === '-') return readClientIds(ctx.stdin);
  const full = isAbsolute(path) ? path : resolve(ctx.cwd, path);
  try {
    if (await looksLikeReport(full)) return await readReport(full, path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code) throw unreadable(error, 'client ID file', path);
    throw error;
  }
  const stream = createReadStream(full, { encoding: 'utf8', highWaterMark: 1 << 20 });
  // Open errors arrive as a stream error; wait for the file to open so they surface as a clear message.
  await new Promise<void>((ok, fail) => {
    stream.once('ready', () => ok());
    stream.once('error', fail);
  }).catch((error: unknown) => {
    throw unreadable(error, 'client ID file', path);
  });
  return readClientIds(stream);
}

export async function readMessageInput(options: MessageInputOptions, ctx: Pick<Ctx, 'stdin' | 'cwd'>): Promise<AssembleInput> {
  const stdinUsers = [options.file === '-' && '--file -', options.dataFile === '-' && '--data-file -', options.clientIdsFile === '-' && '--client-ids-file -', options.appSecretStdin && '--app-secret-stdin'].filter(Boolean);
  if (stdinUsers.length > 1) throw usageError(`${stdinUsers.join(' and ')} both read stdin`, 'give one of them a file path instead');
  if (options.body !== undefined && options.desc !== undefined) throw usageError('--body and --desc set the same field', 'use one of them');

  const flags: MessageFlags = { ...options, ...(options.body !== undefined ? { desc: options.body } : {}) };
  const input: AssembleInput = { flags };
  if (options.file !== undefined) input.file = { name: options.file, text: await readText(options.file, 'message file', ctx) };
  if (options.dataFile !== undefined) input.dataFile = { name: options.dataFile, text: await readText(options.dataFile, 'data file', ctx) };
  if (options.clientIdsFile !== undefined) {
    const list = await readClientIdFile(options.clientIdsFile, ctx);
    input.clientIdsFromFile = list.ids;
    input.clientIdsDuplicates = list.duplicates;
  }
  return input;
}
