// expect: contracts-stand-alone
import "../../db/src/ids.ts";
