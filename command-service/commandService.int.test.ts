import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';
import { pino } from 'pino';
import { directoryStreamId, isAppError, organizationStreamId, systemClock } from '../contracts/index.ts';
import type { CommandContext, ErrorCode, EventStore, PresentedCredentials, Principal } from '../contracts/index.ts';
import { createCommandService, createSqliteEventStore, createSystemStateSource } from './index.ts';
import type { CommandService } from './index.ts';
import type { CommandServiceConfig } from './createCommandService.ts';
import { ensureAdminUser } from './seedAdmin.ts';
import { TEST_COMMAND_CONFIG } from './testing/commandConfig.ts';

const log = pino({ level: 'silent' });
const config: CommandServiceConfig = TEST_COMMAND_CONFIG;
const branchCalls: string[] = [];
const notHere = (name: string) => async (): Promise<never> => {
  branchCalls.push(name);
  throw new Error(`${name} is handled by the branch handlers, stubbed here`);
};
const branchHandlers = Object.fromEntries(
  [
    'CreateRevision',
    'RevertChanges',
    'CreateTable',
    'UpdateTable',
    'RenameTable',
    'DeleteTable',
    'CreateRows',
    'UpdateRows',
    'PatchRows',
    'RenameRow',
    'DeleteRows',
  ].map((name) => [name, notHere(name)]),
) as unknown as NonNullable<Parameters<typeof createCommandService>[0]['branchHandlers']>;

let dir: string;
let file: string;
const stores: EventStore[] = [];

function open(): { store: EventStore; service: CommandService } {
  const store = createSqliteEventStore({ file });
  stores.push(store);
  const systemState = createSystemStateSource({ eventStore: store });
  const service = createCommandService({ eventStore: store, systemState, clock: systemClock, log, config, branchHandlers });
  return { store, service };
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'strata-command-service-'));
  file = join(dir, 'events.db');
});
after(async () => {
  for (const store of stores) await store.close();
  await rm(dir, { recursive: true, force: true });
});

const bearer = (token: string): PresentedCredentials => ({
  authorization: `Bearer ${token}`,
  apiKeyHeader: null,
  apiKeyQuery: null,
  accessTokenCookies: [],
});
const ctx = (principal: Principal): CommandContext => ({ principal, correlationId: `req-${Math.random().toString(36).slice(2)}` });
const refused = (promise: Promise<unknown>, code: ErrorCode) => assert.rejects(promise, (err: unknown) => isAppError(err, code));

describe('command service over a real SQLite event store', () => {
  let store: EventStore;
  let service: CommandService;
  let admin: Principal;
  let alice: Principal;
  let aliceId: string;

  before(async () => {
    ({ store, service } = open());
    await service.start();
    const login = await service.authenticator.login({ username: 'admin', password: 'admin-password-1', clientIp: '127.0.0.1' });
    admin = await service.authenticator.authenticate(bearer(login.accessToken));
  });
  after(() => service.stop());

  test('users and organizations; a refused write leaves the log unchanged', async () => {
    const created = await service.gateway.execute('CreateUser', { username: 'alice', password: 'alice-password' }, ctx(admin));
    assert.equal(created.result.username, 'alice');
    assert.equal(created.result.organizationId, 'alice');
    assert.equal(created.result.role, 'systemUser');
    assert.deepEqual(created.projections, ['directory']);
    assert.equal(created.position, await store.headPosition());
    aliceId = created.result.id;

    const head = await store.headPosition();
    await refused(service.gateway.execute('CreateUser', { username: 'ALICE', password: 'x-password' }, ctx(admin)), 'USER_ALREADY_EXISTS');
    await refused(service.gateway.execute('CreateUser', { username: 'bob', password: 'short' }, ctx(admin)), 'INVALID_PASSWORD');
    assert.equal(await store.headPosition(), head);

    const org = await service.gateway.execute('CreateOrganization', { organizationId: 'acme', ownerId: aliceId }, ctx(admin));
    assert.deepEqual({ id: org.result.id, isPersonal: org.result.isPersonal }, { id: 'acme', isPersonal: false });
    const login = await service.authenticator.login({ username: 'alice', password: 'alice-password', clientIp: '127.0.0.1' });
    alice = await service.authenticator.authenticate(bearer(login.accessToken));
    await refused(service.gateway.execute('CreateOrganization', { organizationId: 'globex' }, ctx(alice)), 'FORBIDDEN');

    const [first] = await store.readStream(directoryStreamId);
    assert.equal(first?.metadata.principal, 'system');
    const last = (await store.readStream(directoryStreamId)).at(-1);
    assert.equal(last?.type, 'OrganizationMemberSet');
    assert.equal(last?.metadata.principal, `user:${admin.kind === 'user' ? admin.userId : ''}`);
  });

  test('projects, branches and endpoints', async () => {
    const project = await service.gateway.execute('CreateProject', { organizationId: 'acme', projectName: 'blog' }, ctx(alice));
    assert.equal(project.result.rootBranchName, 'master');
    assert.equal(project.result.isPublic, false);
    assert.deepEqual(project.projections, ['catalog']);
    const state = await service.systemState.current();
    const master = state.branches.get(state.projects.get(project.result.id)!.rootBranchId)!;

    await refused(
      service.gateway.execute('CreateBranch', { revisionId: master.draftRevisionId, branchName: 'dev' }, ctx(alice)),
      'REVISION_IS_DRAFT',
    );
    const dev = await service.gateway.execute('CreateBranch', { revisionId: master.startRevisionId, branchName: 'dev' }, ctx(alice));
    assert.deepEqual(dev.result.parent, { branchName: 'master', revisionId: master.startRevisionId });
    assert.equal(dev.result.touched, false);

    const head = await service.gateway.execute('CreateEndpoint', { revisionId: master.headRevisionId, type: 'GRAPHQL' }, ctx(alice));
    assert.equal(head.result.mode, 'head');
    assert.equal(head.result.path, '/endpoint/graphql/acme/blog/master/head');
    assert.equal(head.result.openApiPath, null);
    const draft = await service.gateway.execute('CreateEndpoint', { revisionId: dev.result.draftRevisionId, type: 'REST_API' }, ctx(alice));
    assert.equal(draft.result.path, '/endpoint/rest/acme/blog/dev/draft');
    assert.equal(draft.result.openApiPath, '/endpoint/rest/acme/blog/dev/draft/openapi.json');
    assert.equal(draft.result.docsPath, '/endpoint/rest/acme/blog/dev/draft/docs');
    await refused(
      service.gateway.execute('CreateEndpoint', { revisionId: master.headRevisionId, type: 'GRAPHQL' }, ctx(alice)),
      'ENDPOINT_ALREADY_EXISTS',
    );

    const target = { organizationId: 'acme', projectName: 'blog' };
    await refused(service.gateway.execute('DeleteBranch', { ...target, branchName: '$default' }, ctx(alice)), 'CANNOT_DELETE_ROOT_BRANCH');
    await service.gateway.execute('DeleteBranch', { ...target, branchName: 'dev' }, ctx(alice));
    const after = await service.systemState.current();
    assert.equal(after.endpoints.get(draft.result.id)?.deleted, true);
    await refused(service.gateway.execute('DeleteEndpoint', { endpointId: draft.result.id }, ctx(alice)), 'ENDPOINT_NOT_FOUND');
    await service.gateway.execute('DeleteEndpoint', { endpointId: head.result.id }, ctx(alice));

    const visible = await service.gateway.execute('UpdateProject', { ...target, isPublic: true }, ctx(alice));
    assert.equal(visible.result.isPublic, true);
    const again = await service.gateway.execute('UpdateProject', { ...target, isPublic: true }, ctx(alice));
    assert.equal(again.position, visible.position, 'a no-op answers with the position it saw');
    await service.gateway.execute('DeleteProject', target, ctx(alice));
    const recreated = await service.gateway.execute('CreateProject', { ...target, branchName: 'main', isPublic: true }, ctx(alice));
    assert.equal(recreated.result.rootBranchName, 'main');
    assert.notEqual(recreated.result.id, project.result.id);
    const orgEvents = await store.readStream(organizationStreamId('acme'));
    assert.ok(orgEvents.every((event) => event.metadata.principal === `user:${aliceId}`));
  });

  test('concurrent CreateProject with one name: exactly one wins, in one process and across two', async () => {
    const attempts = await Promise.allSettled([
      service.gateway.execute('CreateProject', { organizationId: 'acme', projectName: 'shop' }, ctx(alice)),
      service.gateway.execute('CreateProject', { organizationId: 'acme', projectName: 'SHOP' }, ctx(alice)),
      service.gateway.execute('CreateProject', { organizationId: 'acme', projectName: 'Shop' }, ctx(alice)),
    ]);
    assert.equal(attempts.filter((a) => a.status === 'fulfilled').length, 1);
    for (const a of attempts) if (a.status === 'rejected') assert.ok(isAppError(a.reason, 'PROJECT_ALREADY_EXISTS'), String(a.reason));

    const other = open().service;
    const across = await Promise.allSettled([
      service.gateway.execute('CreateProject', { organizationId: 'acme', projectName: 'wiki' }, ctx(alice)),
      other.gateway.execute('CreateProject', { organizationId: 'acme', projectName: 'Wiki' }, ctx(alice)),
    ]);
    assert.equal(across.filter((a) => a.status === 'fulfilled').length, 1);
    for (const a of across) if (a.status === 'rejected') assert.ok(isAppError(a.reason, 'PROJECT_ALREADY_EXISTS'), String(a.reason));
    const projects = [...(await service.systemState.current()).projects.values()].filter((p) => !p.deleted && /^(shop|wiki)$/i.test(p.name));
    assert.equal(projects.length, 2);
  });

  test('memberships, password change and deactivation take effect on the next request', async () => {
    const bob = await service.gateway.execute('CreateUser', { username: 'bob', password: 'bob-password' }, ctx(admin));
    await service.gateway.execute('AddUserToOrganization', { organizationId: 'acme', userId: bob.result.id, role: 'developer' }, ctx(alice));
    await service.gateway.execute(
      'AddUserToProject',
      { organizationId: 'acme', projectName: 'blog', userId: bob.result.id, role: 'editor' },
      ctx(alice),
    );
    await service.gateway.execute('RemoveUserFromOrganization', { organizationId: 'acme', userId: bob.result.id }, ctx(alice));
    const state = await service.systemState.current();
    assert.equal(state.organizations.get('acme')?.members.has(bob.result.id), false);
    const blog = [...state.projects.values()].find((p) => !p.deleted && p.name === 'blog');
    assert.equal(blog?.members.has(bob.result.id), false, 'removal from the organization removes project roles');
    await refused(service.gateway.execute('RemoveUserFromOrganization', { organizationId: 'acme', userId: aliceId }, ctx(alice)), 'OWNER_REQUIRED');

    const login = await service.authenticator.login({ username: 'bob', password: 'bob-password', clientIp: '127.0.0.2' });
    const bobPrincipal = await service.authenticator.authenticate(bearer(login.accessToken));
    await refused(
      service.gateway.execute('UpdatePassword', { oldPassword: 'wrong-password', newPassword: 'bob-password-2' }, ctx(bobPrincipal)),
      'BAD_USER_INPUT',
    );
    await service.gateway.execute('UpdatePassword', { oldPassword: 'bob-password', newPassword: 'bob-password-2' }, ctx(bobPrincipal));
    await refused(service.authenticator.authenticate(bearer(login.accessToken)), 'TOKEN_REVOKED');
    await service.authenticator.login({ username: 'bob', password: 'bob-password-2', clientIp: '127.0.0.2' });

    const deactivated = await service.gateway.execute('DeactivateUser', { userId: bob.result.id }, ctx(admin));
    assert.equal(deactivated.result.isActive, false);
    await refused(service.authenticator.login({ username: 'bob', password: 'bob-password-2', clientIp: '127.0.0.2' }), 'INVALID_CREDENTIALS');
    await refused(service.gateway.execute('DeactivateUser', { userId: admin.kind === 'user' ? admin.userId : '' }, ctx(admin)), 'BAD_USER_INPUT');
  });

  test('branch content commands go to the branch handlers', async () => {
    await assert.rejects(service.gateway.execute('CreateTable', { revisionId: 'r', tableId: 't', schema: {} }, ctx(alice)), /stubbed here/);
    assert.deepEqual(branchCalls, ['CreateTable']);
  });
});

describe('admin seed', () => {
  test('two processes starting on an empty store create admin once', async () => {
    const seedDir = await mkdtemp(join(tmpdir(), 'strata-seed-'));
    const seedStores = [0, 1].map(() => createSqliteEventStore({ file: join(seedDir, 'events.db') }));
    try {
      const created = await Promise.all(
        seedStores.map((eventStore) =>
          ensureAdminUser({ eventStore, systemState: createSystemStateSource({ eventStore }), adminPassword: 'admin', clock: systemClock, log }),
        ),
      );
      assert.deepEqual(created.filter(Boolean).length, 1);
      const store = seedStores[0]!;
      assert.deepEqual(
        (await store.readStream(directoryStreamId)).map((e) => e.type),
        ['UserCreated', 'OrganizationCreated', 'OrganizationMemberSet'],
      );
      const restart = await ensureAdminUser({
        eventStore: store,
        systemState: createSystemStateSource({ eventStore: store }),
        adminPassword: 'other',
        clock: systemClock,
        log,
      });
      assert.equal(restart, false);
    } finally {
      for (const store of seedStores) await store.close();
      await rm(seedDir, { recursive: true, force: true });
    }
  });

  test('a command service needs its branch handlers', () => {
    const eventStore = stores[0]!;
    assert.throws(
      () => createCommandService({ eventStore, systemState: createSystemStateSource({ eventStore }), clock: systemClock, log, config }),
      /branchHandlers/,
    );
  });
});
