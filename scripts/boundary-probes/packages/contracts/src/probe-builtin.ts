// expect: contracts-no-node-builtins
import "node:fs";
