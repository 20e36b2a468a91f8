// expect: domain-not-route-files
import "../keys/routes.ts";
