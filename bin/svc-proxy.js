#!/usr/bin/env node
// Thin shim: everything lives in the compiled CLI so `--version` stays a cheap import.
import { main } from '../dist/cli/main.js';

main(process.argv).then(
  (code) => {
    if (typeof code === 'number') process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`svc-proxy: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exitCode = 1;
  },
);
