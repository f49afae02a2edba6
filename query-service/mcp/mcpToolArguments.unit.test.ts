import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { JsonRpcError, createToolArgumentParser, targetFormOf, withoutTarget } from './mcpToolArguments.ts';
import { inputSchemaOf, mcpTools, writePermissions } from './mcpToolCatalog.ts';

const spec = (name: string) => {
  const found = mcpTools.find((tool) => tool.name === name);
  assert.ok(found, name);
  return found;
};

function rejects(run: () => unknown, mention: string): void {
  assert.throws(run, (err) => err instanceof JsonRpcError && err.code === -32602 && err.message.includes(mention), mention);
}

describe('tool catalogue', () => {
  test('every write tool names its permission; every schema is closed with its required arguments', () => {
    for (const tool of mcpTools) {
      const schema = inputSchemaOf(tool);
      assert.equal(schema.additionalProperties, false);
      assert.deepEqual(schema.required ?? [], [...tool.required]);
      for (const name of tool.required) assert.ok(schema.properties[name], `${tool.name}.${name}`);
      const isSessionTool = ['login', 'logout', 'me'].includes(tool.name);
      assert.equal(tool.readOnly || isSessionTool || writePermissions[tool.name] !== undefined, true, tool.name);
    }
    assert.deepEqual(Object.keys(inputSchemaOf(spec('get_revision')).properties).sort(), [
      'branchName',
      'organizationId',
      'projectName',
      'revision',
      'revisionId',
    ]);
  });
});

describe('createToolArgumentParser', () => {
  const parse = createToolArgumentParser();

  test('parses JSON strings where objects or arrays are expected, also inside rows', () => {
    const args = parse(spec('create_rows'), {
      revisionId: 'r1',
      tableId: 't',
      rows: '[{"rowId": "a", "data": "{\\"x\\": 1}"}]',
    });
    assert.deepEqual(args.rows, [{ rowId: 'a', data: { x: 1 } }]);
    assert.deepEqual(parse(spec('get_rows'), { revisionId: 'r', tableId: 't', where: '{"id": {"equals": "a"}}' }).where, { id: { equals: 'a' } });
    // A string that is JSON of the wrong kind stays a string and fails the schema.
    rejects(() => parse(spec('get_rows'), { revisionId: 'r', tableId: 't', where: '[1]' }), '"where" must be object');
    assert.equal(parse(spec('get_row'), { revisionId: 'r', tableId: 't', rowId: '{"a":1}' }).rowId, '{"a":1}');
  });

  test('names the first failing argument', () => {
    rejects(() => parse(spec('get_row'), { revisionId: 'r', tableId: 't' }), 'missing required argument "rowId"');
    rejects(() => parse(spec('get_rows'), { revisionId: 'r', tableId: 't', first: -1 }), '"first" must be >= 0');
    rejects(() => parse(spec('get_rows'), { revisionId: 'r', tableId: 't', first: 1.5 }), '"first" must be integer');
    rejects(() => parse(spec('me'), { extra: true }), 'unknown argument "extra"');
    rejects(() => parse(spec('delete_rows'), { revisionId: 'r', tableId: 't', rowIds: [] }), '"rowIds" must NOT have fewer than 1 items');
    rejects(
      () => parse(spec('create_rows'), { revisionId: 'r', tableId: 't', rows: [{ rowId: 'a', data: {}, x: 1 }] }),
      'unknown property in "rows/0" "x"',
    );
    rejects(() => parse(spec('create_endpoint'), { revisionId: 'r', type: 'SOAP' }), '"type" must be equal to one of the allowed values');
    rejects(() => parse(spec('me'), [1]), 'arguments must be an object');
    assert.deepEqual(parse(spec('me'), undefined), {});
  });
});

describe('targetFormOf', () => {
  test('takes exactly one of revisionId or the complete triple', () => {
    assert.deepEqual(targetFormOf({ revisionId: 'r1' }), { kind: 'revision', revisionId: 'r1' });
    assert.deepEqual(targetFormOf({ organizationId: 'o', projectName: 'p', branchName: '$default' }), {
      kind: 'branch',
      organizationId: 'o',
      projectName: 'p',
      branchName: '$default',
      revision: 'draft',
    });
    assert.equal(
      (targetFormOf({ organizationId: 'o', projectName: 'p', branchName: 'b', revision: 'head' }) as { revision: string }).revision,
      'head',
    );
    rejects(() => targetFormOf({ revisionId: 'r', organizationId: 'o' }), 'not both');
    rejects(() => targetFormOf({ revisionId: 'r', revision: 'head' }), 'not both');
    rejects(() => targetFormOf({}), 'give revisionId');
    rejects(() => targetFormOf({ organizationId: 'o', branchName: 'b' }), 'together');
    assert.deepEqual(withoutTarget({ revisionId: 'r', organizationId: 'o', projectName: 'p', branchName: 'b', revision: 'h', tableId: 't' }), {
      tableId: 't',
    });
  });
});
