/** What other parts of the server use of modules/caches; anything else in the folder is internal to it. */
export { PREPARE_JOB, prepareCache, runCacheStorage, STORAGE_JOB } from "./cache-jobs.ts";
export { namesContextCache, resolveCacheUse } from "./use-cache.ts";
