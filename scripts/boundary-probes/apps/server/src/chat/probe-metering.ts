// expect: server-leaves
import "../metering/pipeline.ts";
