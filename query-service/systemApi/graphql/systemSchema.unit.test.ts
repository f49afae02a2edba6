import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { printSchema } from 'graphql';
import type { SystemOperations } from '../operations/systemOperations.ts';
import { isReadName } from '../operations/systemReads.ts';
import { authMutationFields, authQueryFields, createAuthResolvers } from './authResolvers.ts';
import { systemWrites } from '../operations/systemWrites.ts';
import { createMutationResolvers, dryRunQueryFields } from './mutationResolvers.ts';
import { operatorMutationFields, operatorQueryFields } from './operatorResolvers.ts';
import { createQueryResolvers } from './queryResolvers.ts';
import { nestedFields } from './systemObjectTypeDefs.ts';
import { buildSystemSchema } from './systemSchema.ts';

const schema = buildSystemSchema();
// The resolver factories only close over their dependencies; nothing is called here.
const unused = {} as never;

describe('system schema', () => {
  test('printed SDL matches the golden file (regenerate it deliberately when the API changes)', () => {
    const golden = readFileSync(new URL('./systemSchema.golden.graphql', import.meta.url), 'utf8');
    assert.equal(printSchema(schema) + '\n', golden);
  });

  test('every query is a read or an auth field and every mutation but login a catalogued write, and back', () => {
    const queries = Object.keys(schema.getQueryType()?.getFields() ?? {});
    assert.deepEqual(
      queries.filter(
        (name) => !isReadName(name) && !authQueryFields.includes(name) && !dryRunQueryFields.includes(name) && !operatorQueryFields.includes(name),
      ),
      [],
    );
    assert.deepEqual(Object.keys(createMutationResolvers({ gateway: unused, consistency: unused }).Query ?? {}), [...dryRunQueryFields]);
    const auth = createAuthResolvers({ authenticator: unused });
    assert.deepEqual(Object.keys(auth.Query ?? {}).sort(), [...authQueryFields].sort());
    assert.deepEqual(Object.keys(auth.Mutation ?? {}).sort(), [...authMutationFields].sort());
    const mutations = Object.keys(schema.getMutationType()?.getFields() ?? {}).filter(
      (name) => !authMutationFields.includes(name) && !operatorMutationFields.includes(name),
    );
    assert.deepEqual(
      [...mutations].sort(),
      Object.keys(systemWrites)
        .filter((name) => !dryRunQueryFields.includes(name))
        .sort(),
    );
  });

  test('GraphQL-only fields are exactly the nested resolvers', () => {
    const resolvers = createQueryResolvers(schema, unused as SystemOperations);
    const nested = Object.fromEntries(
      Object.entries(resolvers)
        .filter(([type]) => type !== 'Query')
        .map(([type, fields]) => [type, Object.keys(fields).sort()]),
    );
    const expected = Object.fromEntries(Object.entries(nestedFields).map(([type, fields]) => [type, [...fields].sort()]));
    assert.deepEqual(nested, expected);
    const mutation = createMutationResolvers({ gateway: unused, consistency: unused });
    const resolved = [...Object.keys(mutation.Mutation ?? {}), ...authMutationFields, ...operatorMutationFields];
    assert.deepEqual(resolved.sort(), Object.keys(schema.getMutationType()?.getFields() ?? {}).sort());
  });

  test('inputs with only optional fields make data optional', () => {
    for (const root of [schema.getQueryType(), schema.getMutationType()]) {
      for (const field of Object.values(root?.getFields() ?? {})) {
        // Fields with plain arguments (system-api.md §3.2: `apiKeyById(id: ID!)`) have no `data` input.
        for (const arg of field.args.filter((a) => a.name === 'data')) {
          const type = 'ofType' in arg.type ? arg.type.ofType : arg.type;
          const fields = Object.values((type as { getFields(): Record<string, { type: unknown }> }).getFields());
          const allOptional = fields.every((f) => !String(f.type).endsWith('!'));
          assert.equal(String(arg.type).endsWith('!'), !allOptional, `${root?.name}.${field.name}(data)`);
        }
      }
    }
  });
});
