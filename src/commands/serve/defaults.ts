// serve's defaults, written once: options.ts fills them in, define.ts shows them in the help. No zod here, so
// defining the command at start-up loads nothing more.
export const SERVE_DEFAULTS = { host: '127.0.0.1', port: 8787, rate: 50, maxClientIds: 1000, chaosSeed: 1, keepMb: 96 } as const;

/** A default as commander's own help shows one: `(default: 8787)`, a string in quotes. */
export const shown = (value: string | number) => `(default: ${JSON.stringify(value)})`;
