// expect: db-not-apps
import "../../../apps/server/src/env.ts";
