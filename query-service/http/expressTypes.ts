import type { Logger } from 'pino';

// Request-scoped values shared by the HTTP plumbing and the role routers.
declare module 'express-serve-static-core' {
  interface Request {
    /** Child logger of this request carrying `reqId` (set by requestLogger). */
    log: Logger;
  }
  interface Locals {
    /** Id echoed in `X-Request-Id` and logged as `reqId` (set by commonHeaders). */
    requestId?: string;
    /** `user:<id>`, `key:<id>`; unset means anonymous. Set by authentication. */
    principalRef?: string;
    /** Route template used for logs and metric labels (see routeTemplate.ts). */
    routeTemplate?: string;
  }
}

export {};
