/**
 * Requests to hosts outside the deployment, named by users or by anonymous clients (webhook receivers, OAuth client
 * metadata documents). Such a host may be hostile: it may answer too much, too slowly, never, with a broken TLS or
 * HTTP stream, or by redirecting in a loop. The port's one guarantee is that none of this reaches the caller as
 * anything but an `OutboundResult`: the promise never rejects, nothing outlives the deadline (sockets, timers), and
 * no error is left unhandled.
 */
export type OutboundRequest = {
  readonly url: string;
  readonly method: 'GET' | 'POST';
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: string;
  /** The whole exchange, from the lookup to the last byte of the answer. */
  readonly timeoutMs: number;
  /**
   * `keep`: the answer's body is returned, and an answer longer than `maxBodyBytes` fails as `too_large`.
   * `discard`: the body is read to its end (within the deadline) and dropped; only the status matters.
   */
  readonly bodyHandling: 'keep' | 'discard';
  readonly maxBodyBytes: number;
  /** Connect to non-public addresses too (contracts/net/publicAddress.ts); checked on the address actually connected to. */
  readonly allowPrivateAddresses: boolean;
};

export type OutboundFailureKind =
  /** The host is (or resolves only to) a non-public address. */
  | 'disallowed_address'
  /** The deadline passed before the answer was complete. */
  | 'timeout'
  /** The answer's body is longer than `maxBodyBytes`. */
  | 'too_large'
  /** DNS, connection, TLS or HTTP protocol failure (reset, invalid response, oversized headers, ...). */
  | 'network';

export type OutboundResult =
  | {
      readonly ok: true;
      readonly status: number;
      /** Lower-case header names; a repeated header's values joined by `, `. */
      readonly headers: Readonly<Record<string, string>>;
      readonly body: Buffer;
      readonly durationMs: number;
    }
  | {
      readonly ok: false;
      readonly kind: OutboundFailureKind;
      /** One line saying what went wrong, safe to show to the user who named the host. */
      readonly message: string;
      /** The answer's status when it had arrived before the failure. */
      readonly status: number | null;
      readonly durationMs: number;
    };

/** One outbound HTTP client; redirects are never followed (a 3xx is an answer like any other). */
export interface OutboundHttp {
  /** Sends one request. Never rejects. */
  send(request: OutboundRequest): Promise<OutboundResult>;
}
