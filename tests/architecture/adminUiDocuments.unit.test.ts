// The Admin UI's GraphQL documents (admin-ui/src/api/operations/*.graphql) are checked against the server's printed
// schema, and the typed module the screens import (admin-ui/src/api/generated/operations.ts) must be what the
// generator makes of them today: a server change that breaks a screen fails here (or, once regenerated, fails the
// typecheck of the screen that reads a changed field), not in a user's browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { parse, validate } from 'graphql';
import { documentProblems } from '../../admin-ui/codegen/documentProblems.ts';
import { generateOperationModule } from '../../admin-ui/codegen/operationTypes.ts';
import { GENERATED_MODULE, readDocumentFiles, readSystemSchema } from '../../admin-ui/codegen/sources.ts';
import * as operations from '../../admin-ui/src/api/generated/operations.ts';
import { batchRequest, type Operation } from '../../admin-ui/src/api/operation.ts';

const schema = readSystemSchema();
const files = readDocumentFiles();

test('every GraphQL document of the Admin UI validates against the system schema', () => {
  assert.ok(files.length > 0, 'no documents found');
  assert.deepEqual(documentProblems(schema, files), []);
});

test('the generated operations module is up to date (else: npm run generate:admin-ui)', () => {
  const expected = generateOperationModule(schema, files, 'admin-ui/codegen/generate.ts');
  assert.equal(
    readFileSync(GENERATED_MODULE, 'utf8'),
    expected,
    'src/api/generated/operations.ts is stale: run `npm run generate:admin-ui` and review the diff',
  );
});

test('each generated document, and each batch of three copies, is what the server accepts', () => {
  const documents = Object.values(operations as Record<string, unknown>).filter(
    (value): value is Operation<unknown, unknown> => typeof value === 'object' && value !== null && 'source' in value,
  );
  assert.ok(documents.length > 50);
  for (const document of documents) {
    assert.deepEqual(
      validate(schema, parse(document.source)).map((e) => e.message),
      [],
      document.name,
    );
    if (!document.batch) continue;
    const copies = document.batch.variables.map(() => null);
    const sent = batchRequest(document.name, document.batch, [
      Object.fromEntries(copies.map((_, i) => [document.batch?.variables[i], null])),
      {},
      {},
    ]);
    assert.deepEqual(
      validate(schema, parse(sent.source)).map((e) => e.message),
      [],
      `${document.name} batched`,
    );
  }
});

test('a document that names a field the server does not have is reported with its place', () => {
  const broken = { file: 'admin-ui/src/api/operations/broken.graphql', source: 'query Broken {\n  me { id nickname }\n}\n' };
  assert.deepEqual(documentProblems(schema, [...files, broken]), [
    'admin-ui/src/api/operations/broken.graphql:2:11: Cannot query field "nickname" on type "User". Did you mean "username"?',
  ]);
});
