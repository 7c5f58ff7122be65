// The message argument as the text a message file holds: the tools hand it to the command as `-f -` would
// read it (call-context.ts). A file's limits hold for it (docs/behaviour.md#trust: 4 MiB; nesting, as any JSON
// pushctl reads), but a file's words did not fit: "message file stdin is not valid JSON: nested deeper than 64
// levels at line 1, column 154 … or check the file given to -f", about text the client never wrote. They are
// checked here first, and said of the argument and the JSON path in it.
import { invalidMessageError } from '../../errors.js';
import { MAX_MESSAGE_BYTES } from '../../input/read-message-input.js';
import { formatPath } from '../../message/issues.js';
import { MAX_JSON_DEPTH } from '../../message/parse-json.js';
import { describeBytes } from '../../read-whole-file.js';

/** The path of the first array or object that opens level MAX_JSON_DEPTH + 1 (the message is level 1). */
function tooDeepAt(message: object): PropertyKey[] | undefined {
  // Level by level, not recursion: the object may nest deeper than the call stack.
  let level: { value: object; path: PropertyKey[] }[] = [{ value: message, path: [] }];
  for (let depth = 1; level.length > 0; depth++) {
    if (depth > MAX_JSON_DEPTH) return level[0]!.path;
    const next: typeof level = [];
    for (const { value, path } of level) {
      const entries: [PropertyKey, unknown][] = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
      for (const [key, item] of entries) if (typeof item === 'object' && item !== null) next.push({ value: item, path: [...path, key] });
    }
    level = next;
  }
  return undefined;
}

export function messageText(message: object): string {
  const deep = tooDeepAt(message);
  if (deep) throw invalidMessageError(`message nests deeper than ${MAX_JSON_DEPTH} levels at ${formatPath(deep)}`, 'no push message nests more than a few levels: give data as key/value strings, and the other fields in the service\'s shape (pushctl schema)');
  const text = JSON.stringify(message);
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_MESSAGE_BYTES) {
    throw invalidMessageError(`message is ${(bytes / (1 << 20)).toFixed(1)} MiB of JSON, over the ${describeBytes(MAX_MESSAGE_BYTES)} pushctl reads for a message`, 'a message is far smaller: give many client IDs as clientId or through `to`, not in message.condition.client_ids');
  }
  return text;
}
