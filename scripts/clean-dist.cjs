#!/usr/bin/env node
// Runs before `npm run build`: tsc writes what src/ has and never removes what it no longer has,
// so a file deleted or moved in src/ would stay in dist/ and ship in the package ("files": dist).
'use strict';
const { rmSync } = require('node:fs');
const { join } = require('node:path');

rmSync(join(process.cwd(), 'dist'), { recursive: true, force: true });
