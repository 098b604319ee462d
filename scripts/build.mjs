#!/usr/bin/env node
// npm run build: builds the shared package, the server and the web app, always, and records what each
// was built from, so the next `npm start` knows it need not build again (scripts/build-stamp.mjs).
import { buildWorkspaces } from './build-stamp.mjs';

process.exit(buildWorkspaces({ always: true }) ? 0 : 1);
