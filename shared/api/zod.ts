/**
 * The one zod entry point of the project: `zod/mini` (the functional API of zod 4), configured like
 * classic `zod` so behaviour and messages don't change. Classic `zod` costs ~440 KB minified per Lambda
 * bundle (every locale comes along); mini with only the English locale costs a small fraction of that.
 *
 * Classic zod installs two defaults that mini leaves to the caller:
 * - the English locale: without it every default message is a bare "Invalid input";
 * - the memoizer (cycle support for container schemas): containers read it when they are built.
 * Both are set here, at import time, before any schema is built: import zod only from this module, as
 * `import * as z from '#api/zod'` (a namespace import keeps the bundle tree-shakable; re-exporting a
 * namespace object instead would pull in all of zod, locales included).
 */
import { config, memoizer } from 'zod/mini';
import en from 'zod/v4/locales/en.js';

config({ ...en(), memoizer: memoizer() });

export * from 'zod/mini';
