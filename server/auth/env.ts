/** The environment variables a function reads; `process.env` by default, a plain object in tests. */
export type Env = Readonly<Record<string, string | undefined>>;
