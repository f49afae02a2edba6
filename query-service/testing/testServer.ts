import type { AddressInfo } from 'node:net';
import express, { type Express } from 'express';
import { pino, type Logger } from 'pino';

/** Test helper: serves `app` on an ephemeral port. */
export async function serve(app: Express): Promise<{ url: string; close: () => Promise<void> }> {
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Test helper: a pino logger whose lines are collected as parsed objects. */
export function captureLogger(): { log: Logger; lines: Record<string, unknown>[] } {
  const lines: Record<string, unknown>[] = [];
  const log = pino({ level: 'debug' }, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
  return { log, lines };
}

export function newApp(): Express {
  const app = express();
  app.disable('x-powered-by');
  return app;
}
