// expect: server-src-not-tests
import "../../../test/helpers.ts";
