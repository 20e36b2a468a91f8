// expect: no-cycles
import "./probe-cycle-a.ts";
