#!/usr/bin/env node
// The package's CLI entry: runs the compiled CLI (built by `npm install` through the prepare script).
import '../dist/cli/main.js';
