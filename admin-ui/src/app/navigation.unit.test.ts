import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crumbsOf } from '../components/Breadcrumbs.tsx';
import { matchPath, pathOf } from './navigation.ts';

test('matchPath decodes segments and requires the same shape', () => {
  assert.deepEqual(matchPath('/org/:org/project/:project', '/org/acme/project/my%20blog'), { org: 'acme', project: 'my blog' });
  assert.equal(matchPath('/org/:org', '/org/acme/keys'), null);
  assert.equal(matchPath('/org/:org', '/org/%E0%A4%A'), null);
  assert.deepEqual(matchPath('/', '/'), {});
  assert.equal(pathOf('org', 'a/b', 'project', '$default'), '/org/a%2Fb/project/%24default');
});

test('breadcrumbs follow organization → project → branch → table → row', () => {
  assert.deepEqual(
    crumbsOf('/org/acme/project/blog/branch/master/draft/table/posts/row/p1').map((c) => c.label),
    ['Organizations', 'acme', 'blog', 'master (draft)', 'posts', 'p1'],
  );
  assert.deepEqual(
    crumbsOf('/org/acme/keys').map((c) => c.label),
    ['Organizations', 'acme', 'Service keys'],
  );
  assert.deepEqual(crumbsOf('/keys'), []);
  assert.deepEqual(
    crumbsOf('/users/u1').map((c) => [c.label, c.to]),
    [
      ['Users', '/users'],
      ['User', '/users/u1'],
    ],
  );
  assert.deepEqual(crumbsOf('/users'), []);
});

test('breadcrumbs end in the screen a path names: changes, compare, history; a project named so is just a project', () => {
  const labels = (path: string): string[] => crumbsOf(path).map((c) => c.label);
  assert.deepEqual(labels('/org/acme/project/blog/branch/master/draft/changes'), ['Organizations', 'acme', 'blog', 'master (draft)', 'Changes']);
  assert.deepEqual(labels('/org/acme/project/blog/compare'), ['Organizations', 'acme', 'blog', 'Compare']);
  assert.deepEqual(labels('/org/acme/project/compare'), ['Organizations', 'acme', 'compare']);
  assert.deepEqual(labels('/org/acme/project/endpoints'), ['Organizations', 'acme', 'endpoints']);
  assert.deepEqual(labels('/org/acme/project/blog/branch/dev/head/table/posts/row/p1/history'), [
    'Organizations',
    'acme',
    'blog',
    'dev (HEAD)',
    'posts',
    'p1',
    'History',
  ]);
});
