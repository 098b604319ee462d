#!/usr/bin/env node
// npm start: builds the workspaces whose sources, configs or lockfile changed since their last build
// (scripts/build-stamp.mjs), then serves the shop in this process. A start with nothing changed skips
// the build. `npm run build` always builds.
import { pathToFileURL } from 'node:url';
import path from 'node:path';
import { REPO_ROOT, buildWorkspaces } from './build-stamp.mjs';

if (!buildWorkspaces()) process.exit(1);
await import(pathToFileURL(path.join(REPO_ROOT, 'apps/server/dist/main.js')).href);
