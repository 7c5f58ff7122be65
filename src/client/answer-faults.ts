// What is wrong with a service answer that names a message_id pushctl cannot use (docs/behaviour.md#trust):
// "without a message_id" for one that is there but unusable sends the user looking for the wrong fault.
import { firstControlCharacter } from '../message/control-character.js';

/** Why the parsed `result.message_id` (present) is no message_id; undefined when it is one. */
export function messageIdFault(rawId: unknown): string | undefined {
  if (typeof rawId === 'number') return undefined;
  if (typeof rawId !== 'string') return `a message_id that is ${rawId === null ? 'null' : Array.isArray(rawId) ? 'an array' : `a ${typeof rawId}`.replace(/^a object$/, 'an object')}, not a string`;
  return rawId === '' ? 'an empty message_id' : undefined;
}

/**
 * Why a body that is no JSON was refused, when its message_id is the cause: a control character written raw
 * in it (JSON allows one only escaped), which a careless service does. Undefined for any other fault. Read
 * from the text, since no JSON parser gets that far: a raw line break ends a string for some of them.
 */
export function unparsedIdFault(text: string): string | undefined {
  const raw = /"message_id"\s*:\s*"((?:[^"\\]|\\.)*)"/s.exec(text)?.[1];
  const control = raw === undefined ? undefined : firstControlCharacter(raw);
  return control && `its message_id holds the control character ${control} unescaped, which JSON forbids`;
}
