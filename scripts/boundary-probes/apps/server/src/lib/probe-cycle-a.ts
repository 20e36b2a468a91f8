// expect: no-cycles
import "./probe-cycle-b.ts";
