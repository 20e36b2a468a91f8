// expect: web-not-server-or-db
import "../../../../server/src/env.ts";
