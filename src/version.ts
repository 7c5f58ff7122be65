declare const __PUSHCTL_VERSION__: string | undefined;

/** Set by the bundler from package.json; tests running the sources see "0.0.0-dev". */
export const VERSION: string = typeof __PUSHCTL_VERSION__ === 'string' ? __PUSHCTL_VERSION__ : '0.0.0-dev';
