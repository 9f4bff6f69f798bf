import type { IncomingMessage } from 'node:http';
import type { Express } from 'express';

/**
 * The client IP Express would give `request` as `req.ip` (TRUST_PROXY applied), for a request
 * Express never handles: a WebSocket upgrade. Express's own getter reads the request through a
 * view that adds the app, so both paths bind API keys to the same address.
 */
export function clientIpOf(app: Express, request: IncomingMessage): string | undefined {
  const view = Object.assign(Object.create(request) as IncomingMessage, { app });
  return Reflect.get(app.request, 'ip', view) as string | undefined;
}
