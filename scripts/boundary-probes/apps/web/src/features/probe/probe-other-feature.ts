// expect: web-feature-isolation
import "../docs/config.ts";
