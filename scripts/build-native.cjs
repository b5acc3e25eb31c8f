#!/usr/bin/env node
'use strict';
// Builds the daemon's one optional native helper, native/malloc-trim.c, at install time (npm runs
// this as the package's `install` script). It never fails the install: off Linux/glibc, or
// without a C compiler, the daemon runs as before and only keeps its freed C-heap pages.
const { spawnSync } = require('node:child_process');
const { mkdirSync, renameSync, rmSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const source = join(root, 'native', 'malloc-trim.c');
const outDir = join(root, 'native', 'build');
const target = join(outDir, 'malloc-trim.node');

function skip(reason) {
  process.stdout.write(`svc-proxy: native memory trim not built (${reason}); the daemon works without it\n`);
  process.exit(0);
}

if (process.platform !== 'linux') skip(`malloc_trim is glibc's, this is ${process.platform}`);
const header = process.report?.getReport?.().header ?? {};
if (!header.glibcVersionRuntime) skip('not a glibc system');

const compiler = process.env.CC || 'cc';
mkdirSync(outDir, { recursive: true });
const partial = `${target}.${process.pid}.tmp`;
const built = spawnSync(compiler, ['-O2', '-shared', '-fPIC', '-Wall', '-o', partial, source], {
  encoding: 'utf8',
  timeout: 60_000,
});
if (built.error || built.status !== 0) {
  rmSync(partial, { force: true });
  const why = built.error ? built.error.message : (built.stderr || '').trim().split('\n').slice(-1)[0];
  skip(`${compiler} failed: ${why}`);
}
// renamed into place so a daemon never loads a half-written file
renameSync(partial, target);
process.stdout.write(`svc-proxy: built ${target}\n`);
