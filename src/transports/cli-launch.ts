#!/usr/bin/env node
// The `gitlab-emulator` command as built (dist/cli.js): it runs the CLI's `main` from the core
// bundle (dist/core.cjs) with V8's code cache (code-cache.ts), kept once a server has started
// (not for --help or --version).
import { keepCodeCache, loadCore } from './code-cache.js';
import type { CliHooks } from './cli.js';

const { main } = loadCore<{ main: (argv: string[], hooks: CliHooks) => Promise<void> }>('cli');
void main(process.argv.slice(2), { serving: keepCodeCache });
