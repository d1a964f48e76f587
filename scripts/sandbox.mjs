#!/usr/bin/env node
// `npm run sandbox -- [--flavor spec|real] [--port N] [--data DIR] [--seed demo|empty]` runs the sandbox servers
// (test/sandbox/cli.ts, bundled like the benchmarks) in this process, so SIGINT and SIGTERM reach
// them directly.
import { pathToFileURL } from 'node:url';
import { bundleTs } from './bundle-ts.mjs';

const out = await bundleTs('test/sandbox/cli.ts', 'out/sandbox/cli.mjs');
await import(pathToFileURL(out).href);
