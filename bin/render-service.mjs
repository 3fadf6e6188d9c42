#!/usr/bin/env node
// Command-line entry: registers the TypeScript loader, then runs src/cli.ts.
import { register } from 'tsx/esm/api';

register();
await import('../src/cli.ts');
