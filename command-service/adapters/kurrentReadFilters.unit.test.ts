import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { categoryRegex, eventTypeRegex, isSystemEvent, readAllSources } from './kurrentReadFilters.ts';

describe('category filter', () => {
  test('matches `<category>-…` and the stream named like its category, nothing else', () => {
    const regex = new RegExp(categoryRegex(['branch', 'directory']));
    for (const name of ['branch-1', 'branch-a-b', 'directory', 'directory-x']) assert.ok(regex.test(name), name);
    for (const name of ['branchX-1', 'xbranch-1', 'directoryX', '$ce-branch', 'organization-1']) {
      assert.ok(!regex.test(name), name);
    }
  });

  test('regex characters in names are escaped and duplicates removed', () => {
    assert.equal(categoryRegex(['a.b', 'a.b']), '^(?:a\\.b)(?:-|$)');
    const regex = new RegExp(categoryRegex(['a.b']));
    assert.ok(regex.test('a.b-1'));
    assert.ok(!regex.test('axb-1'));
  });
});

describe('event type filter', () => {
  test('matches the listed types exactly', () => {
    const regex = new RegExp(eventTypeRegex(['RowCreated', 'RevisionCommitted']));
    assert.ok(regex.test('RowCreated'));
    assert.ok(regex.test('RevisionCommitted'));
    assert.ok(!regex.test('RowCreatedV2'));
    assert.ok(!regex.test('XRowCreated'));
  });
});

describe('readAll sources', () => {
  test('no lists: every event but system ones, filtered on the server by type', () => {
    const [source, ...rest] = readAllSources({});
    assert.ok(source);
    assert.equal(rest.length, 0);
    assert.equal(source.filter.filterOn, 'eventType');
    assert.ok('regex' in source.filter && new RegExp(source.filter.regex).test('RowsCreated'));
    assert.ok('regex' in source.filter && !new RegExp(source.filter.regex).test('$metadata'));
    assert.equal(source.keep({ streamId: 'branch-1', type: 'RowsCreated' }), true);
    assert.equal(source.keep({ streamId: '$stats-1', type: 'statsCollected' }), false);
  });

  test('categories only: one stream-name filter', () => {
    const sources = readAllSources({ categories: ['directory', 'organization'] });
    assert.equal(sources.length, 1);
    const [source] = sources;
    assert.ok(source);
    assert.deepEqual(source.filter.filterOn, 'streamName');
    assert.ok('regex' in source.filter);
    assert.equal(source.filter.regex, categoryRegex(['directory', 'organization']));
    assert.equal(source.keep({ streamId: 'directory', type: 'UserCreated' }), true);
    assert.equal(source.keep({ streamId: 'branch-1', type: 'UserCreated' }), false);
  });

  test('categories and event types: two reads, one per filter kind (their union is the answer)', () => {
    const sources = readAllSources({ categories: ['directory'], eventTypes: ['RevisionCommitted'] });
    assert.deepEqual(
      sources.map((s) => s.filter.filterOn),
      ['streamName', 'eventType'],
    );
    const [byCategory, byType] = sources;
    assert.ok(byCategory && byType);
    const commit = { streamId: 'branch-1', type: 'RevisionCommitted' };
    assert.equal(byCategory.keep(commit), false);
    assert.equal(byType.keep(commit), true);
    assert.ok('regex' in byType.filter);
    assert.equal(byType.filter.regex, eventTypeRegex(['RevisionCommitted']));
  });

  test('empty lists select nothing', () => {
    assert.deepEqual(readAllSources({ categories: [] }), []);
    assert.deepEqual(readAllSources({ categories: [], eventTypes: [] }), []);
    assert.equal(readAllSources({ categories: [], eventTypes: ['A'] }).length, 1);
  });

  test('system events are never kept, whatever the lists say', () => {
    assert.equal(isSystemEvent({ streamId: '$$branch-1', type: '$metadata' }), true);
    assert.equal(isSystemEvent({ streamId: '$ce-branch', type: '$>' }), true);
    const [byType] = readAllSources({ eventTypes: ['$>'] });
    assert.equal(byType?.keep({ streamId: '$ce-branch', type: '$>' }), false);
  });
});
