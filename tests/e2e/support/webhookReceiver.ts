import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

/** One request the receiver accepted (its signature verified) or refused. */
export type Received = {
  readonly path: string;
  readonly id: string;
  readonly body: { type: string; position: string | null; timestamp: string; data: Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON
  readonly headers: IncomingMessage['headers'];
  /** Which of the path's secrets verify the request on their own (the signature header may carry two). */
  readonly verifiedBy: readonly string[];
  readonly answered: number;
};

export type Reply = { readonly status: number; readonly delayMs?: number; readonly location?: string };

export type Receiver = {
  readonly url: string;
  readonly received: Received[];
  /** Secrets a path's requests are verified with (the receiver refuses with 400 what none of them verifies). */
  secrets(path: string, secrets: readonly string[]): void;
  /** How a path answers its next requests (default 204). */
  reply(path: string, answer: (attempt: number) => Reply): void;
  on(path: string): Received[];
  close(): Promise<void>;
};

/** A loopback webhook receiver verifying every request with the `standardwebhooks` library. */
export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const secrets = new Map<string, readonly string[]>();
  const answers = new Map<string, (attempt: number) => Reply>();
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const path = req.url ?? '/';
      const text = Buffer.concat(chunks).toString('utf8');
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, String(v)]));
      const verifiedBy = (secrets.get(path) ?? []).filter((secret) => {
        try {
          new Webhook(secret).verify(text, headers);
          return true;
        } catch {
          return false;
        }
      });
      const attempt = received.filter((r) => r.path === path).length;
      const answer = verifiedBy.length === 0 ? { status: 400 } : (answers.get(path) ?? (() => ({ status: 204 })))(attempt);
      received.push({
        path,
        id: headers['webhook-id'] ?? '',
        body: JSON.parse(text || 'null'),
        headers: req.headers,
        verifiedBy,
        answered: answer.status,
      });
      setTimeout(() => {
        if (res.destroyed) return;
        res.writeHead(answer.status, answer.location ? { location: answer.location } : {});
        res.end();
      }, answer.delayMs ?? 0);
    });
  });
  server.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    secrets: (path, list) => void secrets.set(path, list),
    reply: (path, answer) => void answers.set(path, answer),
    on: (path) => received.filter((r) => r.path === path),
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
