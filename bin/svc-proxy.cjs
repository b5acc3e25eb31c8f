#!/usr/bin/env node
'use strict';
// CommonJS on purpose: Node's ESM loader costs ~10-15 ms before the first line runs, and
// `svc-proxy --version` must answer as fast as Node itself starts. Everything else is the
// compiled ESM CLI, imported only when it is needed.
const args = process.argv.slice(2);
// The reader went away (`svc-proxy logs | head -1`): stop quietly, as Unix tools do, not with a stack trace.
process.stdout.on('error', (err) => {
  if (err && err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  throw err;
});
if (args.length === 1 && (args[0] === '--version' || args[0] === '-V')) {
  const { readFileSync } = require('node:fs');
  const { join } = require('node:path');
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', 'package.json'), 'utf8'));
  process.stdout.write(`${pkg.version ?? '0.0.0'}\n`);
} else if (args[0] === '__complete') {
  // completion scripts ask at every Tab: only the module that reads config.json, not the CLI
  import('../dist/cli/completion/completion-values.js')
    .then(({ completionValues }) => completionValues(args.slice(1), process.env))
    .then((names) => process.stdout.write(names.map((n) => `${n}\n`).join('')));
} else {
  import('../dist/cli/main.js')
    .then(({ main }) => main(process.argv))
    .then(
      (code) => {
        if (typeof code === 'number') process.exitCode = code;
      },
      (err) => {
        process.stderr.write(`svc-proxy: ${err instanceof Error ? err.message : String(err)}\n`);
        process.exitCode = 1;
      },
    );
}
