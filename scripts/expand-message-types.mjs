// PushMessage is the zod schema's type (src/message/types.ts: z.infer), but the published declarations must
// not need zod, which the package bundles rather than depends on. After tsc has emitted them, the compiler
// itself is asked what PushMessage stands for, and the declaration is written as that plain object type.
// Condition, Targeting and Notification are indexed from PushMessage, so they follow.
import { readFileSync, writeFileSync } from 'node:fs';
import ts from 'typescript';

const SOURCE = 'src/message/types.ts';
const ALIAS = 'PushMessage';

/** The type as TypeScript source: objects and arrays written out, everything else as the compiler prints it. */
function write(checker, type, indent) {
  if (type.isUnion() && type.types.some((member) => member.flags & ts.TypeFlags.Object)) return type.types.map((member) => write(checker, member, indent)).join(' | ');
  if (checker.isArrayType(type)) return `${write(checker, checker.getTypeArguments(type)[0], indent)}[]`;
  if (!(type.flags & ts.TypeFlags.Object)) return checker.typeToString(type);
  const inner = `${indent}  `;
  const lines = checker.getIndexInfosOfType(type).map((info) => `${inner}[key: ${checker.typeToString(info.keyType)}]: ${write(checker, info.type, inner)};`);
  for (const property of checker.getPropertiesOfType(type)) {
    const optional = property.flags & ts.SymbolFlags.Optional ? '?' : '';
    lines.push(`${inner}${property.name}${optional}: ${write(checker, checker.getTypeOfSymbol(property), inner)};`);
  }
  return `{\n${lines.join('\n')}\n${indent}}`;
}

/** PushMessage written out, from the project's own compiler settings. */
export function expandedPushMessage() {
  const config = ts.parseJsonConfigFileContent(ts.readConfigFile('tsconfig.json', ts.sys.readFile).config, ts.sys, process.cwd());
  const program = ts.createProgram([SOURCE], config.options);
  const checker = program.getTypeChecker();
  const alias = checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(SOURCE))).find((s) => s.name === ALIAS);
  if (!alias) throw new Error(`${SOURCE} exports no ${ALIAS}`);
  return write(checker, checker.getDeclaredTypeOfSymbol(alias), '');
}

/** Rewrites the emitted declaration file: PushMessage as a plain type, and no import of zod or the schema. */
export function expandMessageTypes(declarations) {
  const text = readFileSync(declarations, 'utf8');
  const line = new RegExp(`^export type ${ALIAS} = z\\.infer<typeof pushMessageSchema>;$`, 'm');
  if (!line.test(text)) throw new Error(`${declarations}: no "export type ${ALIAS} = z.infer<typeof pushMessageSchema>;" to write out`);
  const written = text
    .replace(line, `export type ${ALIAS} = ${expandedPushMessage()};`)
    .replace(/^import type \* as z from 'zod\/mini';\n/m, '')
    .replace(/^import type \{ pushMessageSchema \} from '\.\/schema\.js';\n/m, '');
  if (/zod|schema\.js/.test(written)) throw new Error(`${declarations} still names zod or the schema after writing ${ALIAS} out`);
  writeFileSync(declarations, written);
}
