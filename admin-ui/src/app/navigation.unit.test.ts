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
  assert.deepEqual(crumbsOf('/org/acme/keys').map((c) => c.label), ['Organizations', 'acme', 'Service keys']);
  assert.deepEqual(crumbsOf('/keys'), []);
});
