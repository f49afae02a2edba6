import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { segmentsBelow } from './fastRoutes.ts';

describe('segmentsBelow', () => {
  const prefix = '/endpoint/rest/';

  test('splits and decodes the segments below the prefix, ignoring the query string', () => {
    assert.deepEqual(segmentsBelow('/endpoint/rest/acme/shop/master/head/tables/t/rows/r%2D7?first=2', prefix), [
      'acme',
      'shop',
      'master',
      'head',
      'tables',
      't',
      'rows',
      'r-7',
    ]);
  });

  test('leaves to the router what it would treat differently', () => {
    assert.equal(segmentsBelow('/Endpoint/rest/acme/shop/master/head', prefix), null, 'case differs');
    assert.equal(segmentsBelow('/endpoint/rest/acme/shop/master/head/', prefix), null, 'trailing slash');
    assert.equal(segmentsBelow('/endpoint/rest/acme//master/head', prefix), null, 'empty segment');
    assert.equal(segmentsBelow('/endpoint/rest/acme/%E0%A4%A/master/head', prefix), null, 'bad encoding');
    assert.equal(segmentsBelow('/endpoint/graphql/acme/shop/master/head', prefix), null, 'other prefix');
  });
});
