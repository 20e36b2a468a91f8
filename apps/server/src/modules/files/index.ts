/** What other parts of the server use of modules/files; anything else in the folder is internal to it. */
export { EXTRACT_JOB } from "./create-file.ts";
export { extractFile } from "./extract-file.ts";
export { getFile } from "./get-file.ts";
export { createFilesService, type FilesService } from "./service.ts";
export { createFileStore } from "./store/index.ts";
