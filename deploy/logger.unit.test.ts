import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createRootLogger, requestLineWriter } from './logger.ts';

const KEY = 'svc_Ab3dEf6hIj9kLm2nOp5qRs';
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1MSJ9.c2lnbmF0dXJl';

function capture(level: 'info' | 'debug' = 'info') {
  const lines: string[] = [];
  const log = createRootLogger({ logLevel: level }, { write: (line: string) => void lines.push(line) });
  return { log, lines, records: () => lines.map((l) => JSON.parse(l) as Record<string, unknown>) };
}

function assertClean(lines: readonly string[], secrets: readonly string[]): void {
  const all = lines.join('');
  for (const secret of secrets) assert.ok(!all.includes(secret), `secret leaked: ${secret}\n${all}`);
}

describe('createRootLogger', () => {
  test('writes JSON lines with ISO time, level label and msg at LOG_LEVEL', () => {
    const { log, records } = capture('info');
    log.debug('hidden');
    log.info({ reqId: 'r1' }, 'request completed');
    const [line, ...rest] = records();
    assert.equal(rest.length, 0);
    assert.equal(line?.level, 'info');
    assert.equal(line?.msg, 'request completed');
    assert.equal(line?.reqId, 'r1');
    assert.match(String(line?.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });

  test('redacts credential headers in any letter case', () => {
    const { log, lines, records } = capture();
    log.info({
      req: {
        headers: { authorization: `Bearer ${JWT}`, Cookie: 'svc_at=aaa; svc_rt=bbb', 'x-api-key': KEY, 'X-Request-Id': 'keep-me' },
      },
      res: { headers: { 'set-cookie': ['svc_rt=ccc; HttpOnly'] } },
    });
    assertClean(lines, [JWT, 'svc_at=aaa', 'svc_rt=bbb', 'svc_rt=ccc', KEY]);
    const line = records()[0] as { req: { headers: Record<string, string> } };
    assert.equal(line.req.headers.authorization, '[REDACTED]');
    assert.equal(line.req.headers['X-Request-Id'], 'keep-me');
  });

  test('redacts password fields at any depth and inside arrays', () => {
    const { log, lines } = capture();
    log.info({ body: { password: 'pw-one-1', input: { oldPassword: 'pw-two-2', newPassword: 'pw-three-3' } } });
    log.info({ args: [{ a: { b: { c: { d: { password: 'pw-deep-4' } } } } }] });
    log.info({ variables: { data: [{ user: { newPassword: 'pw-list-5' } }] } });
    assertClean(lines, ['pw-one-1', 'pw-two-2', 'pw-three-3', 'pw-deep-4', 'pw-list-5']);
    assert.equal(lines.length, 3);
  });

  test('redacts the api_key query value in logged URLs, keeping the rest', () => {
    const { log, lines, records } = capture();
    log.info({ url: `/endpoint/rest/acme/blog/master/head/posts?first=5&api_key=${KEY}&x=1` }, 'request');
    log.info(`fetching /api/me?api_key=${KEY}`);
    assertClean(lines, [KEY]);
    assert.equal(records()[0]?.url, '/endpoint/rest/acme/blog/master/head/posts?first=5&api_key=[REDACTED]&x=1');
  });

  test('redacts refresh tokens, key secrets, MCP session ids and store credentials', () => {
    const { log, lines } = capture();
    log.info({ refreshToken: 'rt-secret-value', key: { secret: KEY, prefix: 'svc_Ab3d' }, 'mcp-session-id': 'sess-123456' });
    log.info({ mcpSessionId: 'sess-abcdef' }, `created key ${KEY}`);
    log.info({ redisUrl: 'redis://user:hunter2@cache:6379' }, 'connecting');
    log.child({ apiKey: KEY }).info('child bindings');
    assertClean(lines, ['rt-secret-value', KEY, 'sess-123456', 'sess-abcdef', 'hunter2']);
  });

  test('redacts secrets carried by errors but keeps their stack', () => {
    const { log, lines, records } = capture();
    const err = Object.assign(new Error(`connect failed to mongodb://root:s3cr3t@db/x?api_key=${KEY}`), { password: 'pw-err-9' });
    log.error({ err }, 'store unreachable');
    log.error(err);
    assertClean(lines, ['s3cr3t', KEY, 'pw-err-9']);
    const line = records()[0] as { err: { type: string; stack: string; message: string } };
    assert.equal(line.err.type, 'Error');
    assert.match(line.err.stack, /logger\.unit\.test\.ts/);
  });

  test('never mutates the logged object', () => {
    const { log } = capture();
    const body = { user: { password: 'pw-keep-1' }, list: [{ newPassword: 'pw-keep-2' }] };
    log.info({ body });
    assert.equal(body.user.password, 'pw-keep-1');
    assert.equal(body.list[0]?.newPassword, 'pw-keep-2');
  });

  describe('requestLineWriter', () => {
    const sameTime = (line: string) => line.replace(/"time":"[^"]+"/, '"time":"T"');
    const lines = [
      {
        reqId: '3d61e33f-3a4e-4b9f-940c-4cd82b85d243',
        method: 'GET',
        route: '/endpoint/rest/:org/:project/:branch/:mode/tables/:table/rows/:rowId',
        status: 200,
        durationMs: 0.09,
        principal: 'anonymous',
      },
      { reqId: 'client.id_1-2', method: 'POST', route: '/api/revision/:revisionId/tables', status: 503, durationMs: 12, principal: 'user:u-1' },
      {
        reqId: 'r',
        method: 'DELETE',
        route: '/odd "quoted" \\ route/\u00e9\u2028',
        status: 404,
        durationMs: 1234.5,
        principal: 'apiKey:k"1',
        aborted: true as const,
      },
    ];

    test('writes the line pino writes for the same fields, level and message', () => {
      for (const line of lines) {
        for (const level of ['info', 'warn'] as const) {
          const viaPino = capture();
          viaPino.log[level](line, 'request completed');
          const fast = capture();
          const write = requestLineWriter(fast.log);
          assert.ok(write);
          write(level, line, 'request completed');
          assert.equal(fast.lines.length, 1);
          assert.equal(sameTime(fast.lines[0] ?? ''), sameTime(viaPino.lines[0] ?? ''));
        }
      }
    });

    test('respects the level and still redacts the final text', () => {
      const { log, lines: written } = capture('info');
      const write = requestLineWriter(log);
      assert.ok(write);
      log.level = 'warn';
      write('info', lines[0] as (typeof lines)[0], 'request completed');
      assert.equal(written.length, 0);
      write('warn', { ...lines[1], principal: `Bearer ${JWT}` } as (typeof lines)[1], 'request completed');
      write('warn', { ...lines[1], reqId: KEY } as (typeof lines)[1], 'request completed');
      assertClean(written, [JWT, KEY]);
      assert.equal(written.length, 2);
    });

    test('is only offered for root loggers made here', () => {
      const { log } = capture();
      assert.equal(requestLineWriter(log.child({ reqId: 'x' })), undefined);
    });
  });
});
