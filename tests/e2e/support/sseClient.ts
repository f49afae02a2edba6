/** One Server-Sent Event as a test reads it. */
export type SseEvent = { readonly id: string | null; readonly event: string; readonly data: any }; // eslint-disable-line @typescript-eslint/no-explicit-any -- test JSON

export type SseStream = {
  readonly status: number;
  readonly events: SseEvent[];
  /** Comment lines received (`keep-alive`, `connected`). */
  readonly comments: string[];
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Resolves once `count` events arrived (rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<SseEvent[]>;
  close(): void;
};

/** Opens `url` as an event stream with fetch and parses the events as they arrive. */
export async function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream & { readonly body: unknown }> {
  const controller = new AbortController();
  const res = await fetch(url, { headers: { accept: 'text/event-stream', ...headers }, signal: controller.signal });
  const events: SseEvent[] = [];
  const comments: string[] = [];
  if (!res.ok || res.body === null) {
    const body = await res.json().catch(() => null);
    return { status: res.status, body, events, comments, ended: Promise.resolve(), waitFor: async () => events, close: () => controller.abort() };
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  const ended = (async () => {
    try {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        buffer += decoder.decode(value, { stream: true });
        let split = buffer.indexOf('\n\n');
        while (split !== -1) {
          const block = buffer.slice(0, split);
          buffer = buffer.slice(split + 2);
          split = buffer.indexOf('\n\n');
          let id: string | null = null;
          let event = 'message';
          let data = '';
          for (const line of block.split('\n')) {
            if (line.startsWith(':')) comments.push(line.slice(1).trim());
            else if (line.startsWith('id: ')) id = line.slice(4);
            else if (line.startsWith('event: ')) event = line.slice(7);
            else if (line.startsWith('data: ')) data += line.slice(6);
          }
          if (data !== '') events.push({ id, event, data: JSON.parse(data) });
        }
      }
    } catch {
      // aborted by close()
    }
  })();
  return {
    status: res.status,
    body: null,
    events,
    comments,
    ended,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (events.length < count) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${count} events, got ${JSON.stringify(events.map((e) => e.event))}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      return events;
    },
    close: () => controller.abort(),
  };
}
