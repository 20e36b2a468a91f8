// expect: module-entry-via-index
import "../keys/key-format.ts";
