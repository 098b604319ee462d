/**
 * zod, in the browser, parses without compiling parsers at run time. Building an object schema, zod 4
 * probes whether `new Function` works; the shop's pages forbid eval (the CSP's script-src), so the probe
 * failed quietly, but Chrome reported a Content Security Policy issue on every page that loaded the
 * schemas (Lighthouse: best practices 96 instead of 100). zod reads its settings from this global, so
 * it is set here, first thing in the browser's start, without importing zod (it is not in the first
 * download). The server, whose render shares its process's globals, keeps the compiled parsers.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig = { ...zodGlobal.__zod_globalConfig, jitless: true };

export {};
