#!/usr/bin/env node
// Shared start of the npm bins, CommonJS (bin/package.json): the one entry point is src/entry/main.ts,
// bundled into dist/bundle/entry.cjs; the single executable starts the same bundle.
'use strict'
require('../dist/bundle/entry.cjs').main(require('node:path').join(__dirname, '..'))
