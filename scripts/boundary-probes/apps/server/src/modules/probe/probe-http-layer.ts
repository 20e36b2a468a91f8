// expect: modules-not-http-layer
import "../../http/errors.ts";
