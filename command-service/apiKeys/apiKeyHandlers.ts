import {
  AppError,
  apiKeyStatus,
  createKeyedLock,
  isoTime,
  organizationApiKeysStreamId,
  principalRef,
  rulesGrant,
  userApiKeysStreamId,
} from '../../contracts/index.ts';
import type {
  ApiKeyCreated,
  ApiKeyRecord,
  ApiKeyType,
  ApiKeyWithSecretView,
  AuthEvent,
  CommandContext,
  CommandOutcome,
  SystemState,
} from '../../contracts/index.ts';
import { appendWithRetry } from '../commandHandler.ts';
import type { CommandHandlers, HandlerDeps } from '../commandHandler.ts';
import { apiKeyView, assertKeyManager, findManageableKey, managesServiceKeys } from './apiKeyAccess.ts';
import type { JwtUserPrincipal } from './apiKeyAccess.ts';
import { generateApiKey } from './apiKeyFormat.ts';
import type { GeneratedApiKey } from './apiKeyFormat.ts';
import type { ApiKeyUsageStore } from './apiKeyUsage.ts';
import {
  assertProjectsInReach,
  assertRulesWithinCreator,
  parseExpiresAt,
  parseKeyName,
  parseKeyScopes,
  parsePermissionRules,
  parseReadOnly,
} from './apiKeyValidation.ts';
import { authEventEnvelope } from '../authEventEnvelope.ts';

export type ApiKeyCommandType = 'CreatePersonalApiKey' | 'CreateServiceApiKey' | 'RevokeApiKey' | 'RotateApiKey';

/** API_KEY_MAX_PER_USER and API_KEY_MAX_SERVICE_PER_ORG (auth.md §8.9). */
export type ApiKeyLimits = { readonly maxPersonalPerUser: number; readonly maxServicePerOrganization: number };

export type ApiKeyHandlerDeps = HandlerDeps & {
  readonly limits: ApiKeyLimits;
  readonly usage: ApiKeyUsageStore;
  readonly generateKey?: () => GeneratedApiKey;
};

type Decision<T> = { readonly events: readonly AuthEvent[]; readonly result: T };

/** The record a creation event describes, as the system state will fold it. */
function recordOf(data: ApiKeyCreated, createdAt: string, streamId: string): ApiKeyRecord {
  const { keyId, ...rest } = data;
  return { id: keyId, ...rest, createdAt, revokedAt: null, replacedById: null, streamId };
}

function assertBelowLimit(state: SystemState, streamId: string, type: ApiKeyType, limit: number, nowMs: number): void {
  const active = (state.apiKeyIdsByStream.get(streamId) ?? []).filter((id) => {
    const key = state.apiKeys.get(id);
    return key !== undefined && apiKeyStatus(key, nowMs) === 'active';
  }).length;
  if (active < limit) return;
  const whose = type === 'personal' ? 'personal API keys' : 'service API keys for this organization';
  throw new AppError('API_KEY_LIMIT_REACHED', `Maximum number of ${whose} (${limit}) reached. Revoke unused keys to create new ones.`);
}

/**
 * createPersonalApiKey, createServiceApiKey, revokeApiKey, rotateApiKey (auth.md §8.3, §8.8). Each decides against
 * the owner stream's folded state and appends with its expected revision (see contracts/events/authEvents.ts), so
 * limits hold under parallel creates and a rotation is one atomic append.
 */
export function createApiKeyHandlers(deps: ApiKeyHandlerDeps): Pick<CommandHandlers, ApiKeyCommandType> {
  const { systemState, clock, log, newId, limits, usage } = deps;
  const generateKey = deps.generateKey ?? (() => generateApiKey());
  const lock = createKeyedLock();

  async function appendToOwner<T>(
    context: CommandContext,
    streamId: string,
    decide: (state: SystemState, nowMs: number) => Decision<T> | Promise<Decision<T>>,
  ): Promise<CommandOutcome<T> & { readonly appended: boolean }> {
    const meta = { principal: principalRef(context.principal), correlationId: context.correlationId };
    const outcome = await lock.run(streamId, () =>
      appendWithRetry(deps, async () => {
        const state = await systemState.current();
        const now = clock.now();
        const { events, result } = await decide(state, now);
        return {
          streamId,
          expected: state.streamRevisions.get(streamId) ?? 'no_stream',
          events: authEventEnvelope(events, meta, now),
          result,
          seenPosition: state.position,
        };
      }),
    );
    return { result: outcome.result, position: outcome.position, projections: [], appended: outcome.appended !== null };
  }

  function audit(
    event: string,
    key: Pick<ApiKeyRecord, 'id' | 'prefix' | 'type' | 'userId' | 'organizationId' | 'rotatedFromId'>,
    actor: string,
  ): void {
    const { id: keyId, prefix, type, userId, organizationId, rotatedFromId } = key;
    const line = { audit: true, event, keyId, prefix, type, userId, organizationId, actor, ...(rotatedFromId ? { rotatedFromId } : {}) };
    log.info(line, `api key ${event.slice('apikey.'.length)}`);
  }

  /** Name, expiry, readOnly and scopes of a new key, plus the project check (auth.md §8.3 rules 4, 5). */
  function keyFields(
    state: SystemState,
    principal: JwtUserPrincipal,
    input: Record<string, unknown>,
    type: ApiKeyType,
    organizationId: string | null,
    now: number,
  ) {
    const name = parseKeyName(input.name);
    const expiresAt = parseExpiresAt(input.expiresAt, type, now);
    const readOnly = parseReadOnly(input.readOnly);
    const scopes = parseKeyScopes(input);
    return { name, expiresAt, readOnly, ...scopes, check: () => assertProjectsInReach(state, principal, scopes.projectIds, organizationId) };
  }

  async function create(
    context: CommandContext,
    principal: JwtUserPrincipal,
    type: ApiKeyType,
    organizationId: string | null,
    authorize: (state: SystemState, now: number) => Pick<ApiKeyCreated, 'permissions'>,
    input: Record<string, unknown>,
  ): Promise<CommandOutcome<ApiKeyWithSecretView>> {
    const generated = generateKey();
    const keyId = newId();
    const streamId = type === 'personal' ? userApiKeysStreamId(principal.userId) : organizationApiKeysStreamId(organizationId ?? '');
    const limit = type === 'personal' ? limits.maxPersonalPerUser : limits.maxServicePerOrganization;
    const outcome = await appendToOwner(context, streamId, (state, now) => {
      const { permissions } = authorize(state, now);
      const { check, ...fields } = keyFields(state, principal, input, type, organizationId, now);
      check();
      assertBelowLimit(state, streamId, type, limit, now);
      const data: ApiKeyCreated = {
        keyId,
        ...fields,
        prefix: generated.prefix,
        secretHash: generated.secretHash,
        type,
        userId: type === 'personal' ? principal.userId : null,
        organizationId,
        permissions,
        createdBy: principal.userId,
        rotatedFromId: null,
      };
      const apiKey = apiKeyView(recordOf(data, isoTime(now), streamId), null, now);
      return { events: [{ type: 'ApiKeyCreated', data }], result: { secret: generated.secret, apiKey } };
    });
    audit('apikey.created', outcome.result.apiKey, `user:${principal.userId}`);
    return { result: outcome.result, position: outcome.position, projections: outcome.projections };
  }

  /** The owner stream of a key the caller may manage (API_KEY_NOT_FOUND otherwise). */
  async function streamOfKey(principal: JwtUserPrincipal, keyId: string): Promise<string> {
    return findManageableKey(await systemState.current(), principal, keyId).streamId;
  }

  return {
    async CreatePersonalApiKey(input, context) {
      const { principal } = context;
      assertKeyManager(principal);
      const organizationId = input.organizationId ?? null;
      return create(
        context,
        principal,
        'personal',
        organizationId,
        (state) => {
          if (organizationId !== null) {
            const organization = state.organizations.get(organizationId);
            if (!organization) throw new AppError('ORGANIZATION_NOT_FOUND');
            if (!organization.members.has(principal.userId)) throw new AppError('FORBIDDEN', 'You are not a member of this organization');
          }
          return { permissions: null };
        },
        input,
      );
    },

    async CreateServiceApiKey(input, context) {
      const { principal } = context;
      assertKeyManager(principal);
      const organizationId = input.organizationId;
      if (typeof organizationId !== 'string') throw new AppError('ORGANIZATION_NOT_FOUND');
      return create(
        context,
        principal,
        'service',
        organizationId,
        (state) => {
          if (!state.organizations.has(organizationId)) throw new AppError('ORGANIZATION_NOT_FOUND');
          if (!managesServiceKeys(state, principal.userId, organizationId)) {
            throw new AppError('FORBIDDEN', 'Only owners and admins of the organization can manage its service keys');
          }
          // Validated here, before the other fields, because the creator check below needs valid rules.
          const rules = parsePermissionRules(input.permissions);
          assertRulesWithinCreator(state, principal, organizationId, (action, subject) => rulesGrant(rules, action, subject));
          return { permissions: { rules } };
        },
        input,
      );
    },

    async RevokeApiKey(input, context) {
      const { principal } = context;
      assertKeyManager(principal);
      const streamId = await streamOfKey(principal, input.id);
      const lastUsed = (await usage.lastUsedAt([input.id])).get(input.id) ?? null;
      const outcome = await appendToOwner(context, streamId, (state, now) => {
        const key = findManageableKey(state, principal, input.id);
        // Revoking a revoked key returns it unchanged; expired keys can be revoked.
        if (key.revokedAt !== null) return { events: [], result: apiKeyView(key, lastUsed, now) };
        const event: AuthEvent = { type: 'ApiKeyRevoked', data: { keyId: key.id, revokedBy: principal.userId, replacedById: null } };
        return { events: [event], result: apiKeyView({ ...key, revokedAt: isoTime(now) }, lastUsed, now) };
      });
      if (outcome.appended) audit('apikey.revoked', outcome.result, `user:${principal.userId}`);
      return { result: outcome.result, position: outcome.position, projections: outcome.projections };
    },

    async RotateApiKey(input, context) {
      const { principal } = context;
      assertKeyManager(principal);
      const streamId = await streamOfKey(principal, input.id);
      const generated = generateKey();
      const newKeyId = newId();
      const outcome = await appendToOwner(context, streamId, (state, now) => {
        const old = findManageableKey(state, principal, input.id);
        const status = apiKeyStatus(old, now);
        if (status !== 'active') throw new AppError('API_KEY_NOT_ACTIVE', `Cannot rotate ${status === 'revoked' ? 'a revoked' : 'an expired'} key`);
        const data: ApiKeyCreated = {
          keyId: newKeyId,
          name: old.name,
          prefix: generated.prefix,
          secretHash: generated.secretHash,
          type: old.type,
          userId: old.userId,
          organizationId: old.organizationId,
          projectIds: old.projectIds,
          branchNames: old.branchNames,
          tableIds: old.tableIds,
          readOnly: old.readOnly,
          permissions: old.permissions,
          expiresAt: old.expiresAt,
          createdBy: principal.userId,
          rotatedFromId: old.id,
        };
        const events: AuthEvent[] = [
          { type: 'ApiKeyRevoked', data: { keyId: old.id, revokedBy: principal.userId, replacedById: newKeyId } },
          { type: 'ApiKeyCreated', data },
        ];
        const apiKey = apiKeyView(recordOf(data, isoTime(now), streamId), null, now);
        return { events, result: { secret: generated.secret, apiKey } };
      });
      audit('apikey.rotated', outcome.result.apiKey, `user:${principal.userId}`);
      return { result: outcome.result, position: outcome.position, projections: outcome.projections };
    },
  };
}
