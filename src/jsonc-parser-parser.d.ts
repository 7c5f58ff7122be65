// jsonc-parser declares the types of its entry alone; src/message/parse-json.ts imports its parser module
// directly (the entry would load its formatter too), which exports the same visit.
declare module 'jsonc-parser/lib/esm/impl/parser.js' {
  export { visit } from 'jsonc-parser/lib/esm/main.js';
}
