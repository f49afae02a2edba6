import { createHmac } from 'node:crypto';
import type { OutboundHttp } from '../../contracts/index.ts';

export const DISALLOWED_ADDRESS = 'disallowed address';

export type SignedRequest = { readonly url: string; readonly messageId: string; readonly body: string; readonly secrets: readonly string[] };

export type AttemptResult = { readonly ok: boolean; readonly status: number | null; readonly durationMs: number; readonly error: string | null };

/** `v1,<base64 HMAC-SHA256(secret bytes, "{id}.{timestamp}.{body}")>` per secret, space-separated (Standard Webhooks). */
export function signatureHeader(messageId: string, timestamp: number, body: string, secrets: readonly string[]): string {
  const content = `${messageId}.${timestamp}.${body}`;
  return secrets
    .map(
      (secret) =>
        `v1,${createHmac('sha256', Buffer.from(secret.replace(/^whsec_/, ''), 'base64'))
          .update(content)
          .digest('base64')}`,
    )
    .join(' ');
}

/**
 * One attempt (changes.md §6.2): POST with the Standard Webhooks headers through the outbound client; success is a
 * 2xx within `timeoutMs`; redirects are not followed (a 3xx fails); the connected address must be public unless
 * `allowPrivate`. The receiver's body is read and dropped. Errors are the attempt's `error` strings of the deliveries
 * log: `HTTP <status>`, `redirect not followed`, `timeout`, `disallowed address`, or the connection's failure.
 */
export async function sendWebhookRequest(
  outbound: OutboundHttp,
  request: SignedRequest,
  options: { readonly timeoutMs: number; readonly allowPrivate: boolean; readonly nowMs: number },
): Promise<AttemptResult> {
  const timestamp = Math.floor(options.nowMs / 1000);
  const result = await outbound.send({
    url: request.url,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'user-agent': 'Strata-Webhooks/1',
      'webhook-id': request.messageId,
      'webhook-timestamp': String(timestamp),
      'webhook-signature': signatureHeader(request.messageId, timestamp, request.body, request.secrets),
    },
    body: request.body,
    timeoutMs: options.timeoutMs,
    bodyHandling: 'discard',
    maxBodyBytes: 0,
    allowPrivateAddresses: options.allowPrivate,
  });
  if (!result.ok) {
    const error = result.kind === 'timeout' ? 'timeout' : result.kind === 'disallowed_address' ? DISALLOWED_ADDRESS : result.message;
    return { ok: false, status: result.status, durationMs: result.durationMs, error };
  }
  const { status, durationMs } = result;
  if (status >= 200 && status < 300) return { ok: true, status, durationMs, error: null };
  return { ok: false, status, durationMs, error: status >= 300 && status < 400 ? 'redirect not followed' : `HTTP ${status}` };
}
