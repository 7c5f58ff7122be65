// zod compiles a parser for each object schema on its first use (`new Function`), which pays off after many
// parses of the same schema. pushctl parses a message or a set of options once per run, where compiling
// costs more than it saves, and the inbox page's policy forbids `new Function` (zod's probe for it would
// be reported as a violation). So zod runs without it everywhere: every module that builds a schema imports
// this one, which sets the option before any schema is built.
import { config } from 'zod/mini';

config({ jitless: true });
