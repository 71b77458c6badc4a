#!/usr/bin/env node
// The package's command line (`npx decision-console gate ...`): registers tsx, so the TypeScript runs as it is in a
// clone after `npm install`, and hands over to scripts/decision-console.ts.
import { register } from "tsx/esm/api";

register();
await import(new URL("../scripts/decision-console.ts", import.meta.url).href);
