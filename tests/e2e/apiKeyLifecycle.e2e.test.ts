import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { draftEndpoint, expectStatus, seedProject, type SeededProject } from './support/authFixtures.ts';
import { ADMIN_PASSWORD, expectRestError, gqlFailure, gqlOk, startAuthServer, type AuthServer } from './support/authServer.ts';

// API keys over HTTP: management (system-api.md §3, §4.5), transports (auth.md §2), lifecycle and limits (§8).
let server: AuthServer;
let admin: string;
let kim: string;
let kimId: string;
let blog: SeededProject;

before(async () => {
  server = await startAuthServer({ API_KEY_MAX_PER_USER: '3', API_KEY_MAX_SERVICE_PER_ORG: '2' });
  admin = (await server.login('admin', ADMIN_PASSWORD)).accessToken;
  blog = await seedProject(server, admin, 'acme', 'blog', { tables: ['notes'] });
  kimId = await server.createUser(admin, 'kim', 'kim-password-1');
  expectStatus(await server.call('POST', '/api/organization/acme/users', { token: admin, body: { userId: kimId, role: 'developer' } }), 200);
  kim = (await server.login('kim', 'kim-password-1')).accessToken;
});
after(() => server.close());

const withKey = (secret: string) => ({ headers: { 'X-Api-Key': secret } });
const createPersonal = (token: string, body: Record<string, unknown>) => server.call('POST', '/api/api-keys/personal', { token, body });
const me = (options: Parameters<AuthServer['call']>[2]) => server.call('GET', '/api/me', options);

describe('key management', () => {
  test('create answers the secret once; lists and reads never show it; revoke is idempotent; rotate replaces', async () => {
    const created = expectStatus(await createPersonal(kim, { name: 'ci', organizationId: 'acme', readOnly: true }), 201);
    const { secret, apiKey } = created.body;
    assert.match(secret, /^svc_[0-9A-Za-z]{22}$/);
    assert.ok(created.headers.get('x-strata-position'));
    assert.deepEqual(
      [apiKey.prefix, apiKey.type, apiKey.status, apiKey.userId, apiKey.organizationId, apiKey.readOnly, apiKey.permissions, apiKey.createdBy],
      [secret.slice(0, 10), 'personal', 'active', kimId, 'acme', true, null, kimId],
    );
    const listed = expectStatus(await server.call('GET', '/api/api-keys/personal', { token: kim }), 200);
    assert.equal(listed.body[0].id, apiKey.id);
    const got = expectStatus(await server.call('GET', `/api/api-key/${apiKey.id}`, { token: kim }), 200);
    assert.deepEqual(got.body, { ...apiKey, lastUsedAt: got.body.lastUsedAt });
    const graphql = gqlOk(
      await server.gql(`{ myApiKeys { id prefix status } apiKeyById(id: "${apiKey.id}") { id readOnly permissions } }`, { token: kim }),
    );
    assert.deepEqual(graphql.apiKeyById, { id: apiKey.id, readOnly: true, permissions: null });
    for (const reply of [listed, got]) assert.ok(!reply.text.includes(secret) && !('secret' in reply.body));

    const revoked = expectStatus(await server.call('POST', `/api/api-key/${apiKey.id}/revoke`, { token: kim }), 200);
    assert.deepEqual([revoked.body.status, typeof revoked.body.revokedAt], ['revoked', 'string']);
    const again = expectStatus(await server.call('POST', `/api/api-key/${apiKey.id}/revoke`, { token: kim }), 200);
    assert.equal(again.body.revokedAt, revoked.body.revokedAt);
    const active = expectStatus(await server.call('GET', '/api/api-keys/personal', { token: kim }), 200).body;
    assert.ok(!active.some((key: { id: string }) => key.id === apiKey.id));
    const all = expectStatus(await server.call('GET', '/api/api-keys/personal?includeRevoked=true', { token: kim }), 200).body;
    assert.ok(all.some((key: { id: string }) => key.id === apiKey.id));
    assert.deepEqual(gqlOk(await server.gql('{ myApiKeys(data: { includeRevoked: true }) { id } }', { token: kim })).myApiKeys.length, all.length);

    const other = expectStatus(await createPersonal(kim, { name: 'deploy' }), 201).body;
    const rotation = gqlOk(
      await server.gql(`mutation { rotateApiKey(id: "${other.apiKey.id}") { secret apiKey { id rotatedFromId name } } }`, { token: kim }),
    );
    assert.deepEqual([rotation.rotateApiKey.apiKey.rotatedFromId, rotation.rotateApiKey.apiKey.name], [other.apiKey.id, 'deploy']);
    const old = gqlOk(await server.gql(`{ apiKeyById(id: "${other.apiKey.id}") { status replacedById } }`, { token: kim })).apiKeyById;
    assert.deepEqual(old, { status: 'revoked', replacedById: rotation.rotateApiKey.apiKey.id });
    expectRestError(await me(withKey(other.secret)), 401, 'API_KEY_REVOKED');
    assert.equal((await me(withKey(rotation.rotateApiKey.secret))).body.username, 'kim');
    const rest = expectStatus(await server.call('POST', `/api/api-key/${rotation.rotateApiKey.apiKey.id}/rotate`, { token: kim }), 201);
    assert.equal(rest.body.apiKey.rotatedFromId, rotation.rotateApiKey.apiKey.id);
    expectStatus(await server.call('POST', `/api/api-key/${rest.body.apiKey.id}/revoke`, { token: kim }), 200);
  });

  test('service keys: owners and admins only; key callers and other users are refused', async () => {
    const rules = {
      rules: [
        { action: ['read'], subject: ['Row', 'Table'] },
        { action: 'create', subject: 'Row' },
      ],
    };
    const created = expectStatus(
      await server.call('POST', '/api/organization/acme/api-keys/service', { token: admin, body: { name: 'svc', permissions: rules } }),
      201,
    );
    assert.deepEqual([created.body.apiKey.type, created.body.apiKey.userId, created.body.apiKey.permissions], ['service', null, rules]);
    const listed = expectStatus(await server.call('GET', '/api/organization/acme/api-keys/service', { token: admin }), 200).body;
    assert.equal(listed[0].id, created.body.apiKey.id);
    const viaGraphql = gqlOk(await server.gql('{ serviceApiKeys(organizationId: "acme") { id permissions } }', { token: admin }));
    assert.deepEqual(viaGraphql.serviceApiKeys[0], { id: created.body.apiKey.id, permissions: rules });
    expectRestError(await server.call('GET', '/api/organization/acme/api-keys/service', { token: kim }), 403, 'FORBIDDEN');
    expectRestError(await server.call('GET', `/api/api-key/${created.body.apiKey.id}`, { token: kim }), 404, 'API_KEY_NOT_FOUND');
    expectRestError(await server.call('GET', '/api/api-key/no-such-key', { token: admin }), 404, 'API_KEY_NOT_FOUND');
    // Key management needs a user JWT: a key (even the service key itself) is refused.
    expectRestError(await server.call('GET', '/api/api-keys/personal', withKey(created.body.secret)), 403, 'FORBIDDEN');
    const personal = expectStatus(await createPersonal(admin, { name: 'admin-key' }), 201).body.secret;
    expectRestError(await server.call('POST', '/api/api-keys/personal', { ...withKey(personal), body: { name: 'x' } }), 403, 'FORBIDDEN');
    assert.deepEqual(gqlFailure(await server.gql('mutation { createPersonalApiKey(data: { name: "x" }) { secret } }', withKey(personal))), [
      200,
      'FORBIDDEN',
      true,
    ]);
    // The service key works with its rules: it reads rows and cannot create tables.
    const rows = `/api/revision/${blog.drafts.master}/table/notes/rows`;
    expectStatus(await server.call('GET', rows, withKey(created.body.secret)), 200);
    const table = { tableId: 'nope', schema: { type: 'object', additionalProperties: false, required: [], properties: {} } };
    expectRestError(
      await server.call('POST', `/api/revision/${blog.drafts.master}/tables`, { ...withKey(created.body.secret), body: table }),
      403,
      'FORBIDDEN',
    );
  });
});

describe('transports (auth.md §2)', () => {
  test('X-Api-Key, Authorization Bearer svc_ and ?api_key= all work; repeated api_key and ambiguity are 400', async () => {
    const { secret } = expectStatus(await createPersonal(kim, { name: 'transport' }), 201).body;
    assert.equal((await me(withKey(secret))).body.username, 'kim');
    assert.equal((await me({ token: secret })).body.username, 'kim');
    assert.equal((await server.call('GET', `/api/me?api_key=${secret}`)).body.username, 'kim');
    assert.equal(gqlOk(await server.call('GET', `/graphql?api_key=${secret}&query=${encodeURIComponent('{ me { username } }')}`)).me.username, 'kim');
    assert.equal((await me({ ...withKey(secret), token: secret })).status, 200, 'the same key twice counts once');
    expectRestError(await server.call('GET', `/api/me?api_key=${secret}&api_key=${secret}`), 400, 'BAD_REQUEST');
    expectRestError(await server.call('GET', `/api/me?api_key[]=${secret}`), 400, 'BAD_REQUEST');
    expectRestError(await me({ ...withKey(secret), token: kim }), 400, 'AMBIGUOUS_CREDENTIALS');
    expectRestError(await server.call('GET', `/api/me?api_key=${secret}`, { token: kim }), 400, 'AMBIGUOUS_CREDENTIALS');
    const malformed = await me(withKey('svc_short'));
    expectRestError(malformed, 401, 'API_KEY_INVALID');
    assert.equal(malformed.headers.get('www-authenticate'), 'Bearer realm="strata", error="invalid_token"');
    expectRestError(await me(withKey(`svc_${'A'.repeat(22)}`)), 401, 'API_KEY_INVALID');
    expectRestError(await me(withKey(kim)), 401, 'API_KEY_INVALID');
    // Free the slot for the tests below (API_KEY_MAX_PER_USER is 3 here).
    const id = (await server.call('GET', '/api/api-keys/personal', { token: kim })).body.find((key: { name: string }) => key.name === 'transport').id;
    expectStatus(await server.call('POST', `/api/api-key/${id}/revoke`, { token: kim }), 200);
  });

  test('expired keys: 401 API_KEY_EXPIRED; they can be revoked but not rotated', async () => {
    const expiresAt = new Date(Date.now() + 1500).toISOString();
    const { secret, apiKey } = expectStatus(await createPersonal(kim, { name: 'short', expiresAt }), 201).body;
    assert.equal((await me(withKey(secret))).status, 200);
    await sleep(1700);
    expectRestError(await me(withKey(secret)), 401, 'API_KEY_EXPIRED');
    expectRestError(await server.call('POST', `/api/api-key/${apiKey.id}/rotate`, { token: kim }), 409, 'API_KEY_NOT_ACTIVE');
    assert.equal(expectStatus(await server.call('POST', `/api/api-key/${apiKey.id}/revoke`, { token: kim }), 200).body.status, 'revoked');
    expectRestError(await me(withKey(secret)), 401, 'API_KEY_REVOKED');
  });
});

describe('limits (auth.md §8.9)', () => {
  test('API_KEY_MAX_PER_USER active personal keys, then 409; rotation keeps the count, revocation frees a slot', async () => {
    const limId = await server.createUser(admin, 'lim', 'lim-password-1');
    const lim = (await server.login('lim', 'lim-password-1')).accessToken;
    const keys = [];
    for (let i = 0; i < 3; i++) keys.push(expectStatus(await createPersonal(lim, { name: `k${i}` }), 201).body.apiKey);
    expectRestError(await createPersonal(lim, { name: 'k3' }), 409, 'API_KEY_LIMIT_REACHED');
    const rotated = expectStatus(await server.call('POST', `/api/api-key/${keys[0].id}/rotate`, { token: lim }), 201).body.apiKey;
    expectRestError(await createPersonal(lim, { name: 'k3' }), 409, 'API_KEY_LIMIT_REACHED');
    expectStatus(await server.call('POST', `/api/api-key/${rotated.id}/revoke`, { token: lim }), 200);
    assert.equal(expectStatus(await createPersonal(lim, { name: 'k3' }), 201).body.apiKey.userId, limId);
  });

  test('API_KEY_MAX_SERVICE_PER_ORG active service keys per organization, then 409', async () => {
    expectStatus(await server.call('POST', '/api/organizations', { token: admin, body: { organizationId: 'lims' } }), 201);
    const body = { name: 's', permissions: { rules: [{ action: 'read', subject: 'all' }] } };
    for (let i = 0; i < 2; i++) expectStatus(await server.call('POST', '/api/organization/lims/api-keys/service', { token: admin, body }), 201);
    expectRestError(await server.call('POST', '/api/organization/lims/api-keys/service', { token: admin, body }), 409, 'API_KEY_LIMIT_REACHED');
  });
});

describe('readOnly keys (auth.md §8.6)', () => {
  test('writes are refused with API_KEY_READ_ONLY on all four surfaces; reads and rows/query pass', async () => {
    const readOnly = withKey(expectStatus(await createPersonal(kim, { name: 'ro', readOnly: true }), 201).body.secret);
    const writer = withKey(expectStatus(await createPersonal(kim, { name: 'rw' }), 201).body.secret);
    const rows = `/api/revision/${blog.drafts.master}/table/notes/rows`;
    const genRows = `${draftEndpoint('rest', blog)}/tables/notes/rows`;
    const genGraphql = draftEndpoint('graphql', blog);
    expectRestError(await server.call('POST', rows, { ...readOnly, body: { rowId: 'ro1', data: { title: 'x' } } }), 403, 'API_KEY_READ_ONLY');
    expectStatus(await server.call('POST', `${rows}/query`, { ...readOnly, body: { first: 5 } }), 200);
    expectStatus(await server.call('GET', rows, readOnly), 200);
    const createRow = `mutation { createRow(data: { revisionId: "${blog.drafts.master}", tableId: "notes", rowId: "ro2", data: { title: "x" } }) { id } }`;
    assert.deepEqual(gqlFailure(await server.gql(createRow, readOnly)), [200, 'API_KEY_READ_ONLY', true]);
    assert.equal(
      gqlOk(await server.gql(`{ rows(data: { revisionId: "${blog.drafts.master}", tableId: "notes" }) { totalCount } }`, readOnly)).rows.totalCount >=
        1,
      true,
    );
    expectRestError(await server.call('POST', genRows, { ...readOnly, body: { id: 'ro3', data: { title: 'x' } } }), 403, 'API_KEY_READ_ONLY');
    expectStatus(await server.call('POST', `${genRows}/query`, { ...readOnly, body: { first: 5 } }), 200);
    const createNote = 'mutation { createNote(data: { id: "ro4", data: { title: "x" } }) { id } }';
    assert.deepEqual(gqlFailure(await server.gql(createNote, { ...readOnly, path: genGraphql })), [200, 'API_KEY_READ_ONLY', true]);
    assert.ok(gqlOk(await server.gql('{ notes { totalCount } }', { ...readOnly, path: genGraphql })).notes.totalCount >= 1);
    // The same writes with a key that is not readOnly succeed.
    expectStatus(await server.call('POST', rows, { ...writer, body: { rowId: 'rw1', data: { title: 'x' } } }), 201);
    expectStatus(await server.call('POST', genRows, { ...writer, body: { id: 'rw2', data: { title: 'x' } } }), 201);
    assert.ok(gqlOk(await server.gql(createNote, { ...writer, path: genGraphql })).createNote);
  });
});

describe('owner state (auth.md §8.4, §12)', () => {
  test('a deactivated owner or a removed member makes personal keys API_KEY_INVALID', async () => {
    const deeId = await server.createUser(admin, 'dee', 'dee-password-1');
    expectStatus(await server.call('POST', '/api/organization/acme/users', { token: admin, body: { userId: deeId, role: 'reader' } }), 200);
    const dee = (await server.login('dee', 'dee-password-1')).accessToken;
    const bound = withKey(expectStatus(await createPersonal(dee, { name: 'acme', organizationId: 'acme' }), 201).body.secret);
    const free = withKey(expectStatus(await createPersonal(dee, { name: 'free' }), 201).body.secret);
    const project = '/api/organization/acme/project/blog';
    expectStatus(await server.call('GET', project, bound), 200);

    expectStatus(await server.call('POST', `/api/user/${deeId}/deactivate`, { token: admin }), 200);
    for (const key of [bound, free]) expectRestError(await me(key), 401, 'API_KEY_INVALID');
    expectStatus(await server.call('POST', `/api/user/${deeId}/reactivate`, { token: admin }), 200);
    for (const key of [bound, free]) expectStatus(await me(key), 200);

    expectStatus(await server.call('DELETE', `/api/organization/acme/user/${deeId}`, { token: admin }), 200);
    expectRestError(await me(bound), 401, 'API_KEY_INVALID');
    expectStatus(await me(free), 200);
    expectRestError(await server.call('GET', project, free), 403, 'FORBIDDEN');
  });
});

test('no password, refresh token, access token or key secret appears in any log line', () => {
  server.assertNoSecretsLogged();
});
