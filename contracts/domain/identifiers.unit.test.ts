import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { isAppError } from '../errors/appError.ts';
import type { ErrorCode } from '../errors/catalogue.ts';
import {
  RESERVED_USERNAMES,
  assertBranchName,
  assertOrganizationId,
  assertPassword,
  assertProjectName,
  assertRowId,
  assertTableId,
  assertUsername,
  isReservedUsername,
  isValidPropertyName,
  sameIdentifier,
} from './identifiers.ts';

function throwsCode(fn: () => void, code: ErrorCode, message?: string): void {
  assert.throws(fn, (err: unknown) => {
    assert.ok(isAppError(err, code), `expected ${code}, got ${String(err)}`);
    if (message !== undefined) assert.equal(err.message, message);
    return true;
  });
}

const long = 'a'.repeat(64);
const tooLong = 'a'.repeat(65);

describe('name identifiers (username, organization, project, branch)', () => {
  const cases: Array<[(v: unknown) => void, ErrorCode]> = [
    [assertUsername, 'INVALID_USERNAME'],
    [assertOrganizationId, 'INVALID_ORGANIZATION_ID'],
    [assertProjectName, 'INVALID_PROJECT_NAME'],
    [assertBranchName, 'INVALID_BRANCH_NAME'],
  ];
  for (const [check, code] of cases) {
    test(`${code}: accepts valid names`, () => {
      for (const ok of ['a', 'A', '_', '_a', 'a-b', 'a_b', 'Blog2', long, 'x__y', 'a-']) check(ok);
    });
    test(`${code}: refuses invalid names`, () => {
      for (const bad of ['', '__a', '__', '1a', '-a', 'a.b', 'a b', 'ä', 'a$', '$default', tooLong, 42, null, undefined]) {
        throwsCode(() => check(bad), code);
      }
    });
  }

  test('messages come from the catalogue', () => {
    throwsCode(
      () => assertUsername('1x'),
      'INVALID_USERNAME',
      'Username must be 1 to 64 characters, start with a letter or underscore, not start with two underscores, and contain only letters, digits, hyphens and underscores',
    );
  });

  test('reserved usernames and organization ids in any case', () => {
    for (const name of ['api', 'API', 'Get-Token', 'strata', 'Undefined']) {
      throwsCode(() => assertUsername(name), 'RESERVED_NAME', 'This username is reserved and cannot be used');
      throwsCode(() => assertOrganizationId(name), 'RESERVED_NAME', 'This organization id is reserved and cannot be used');
    }
    assertUsername('apis');
    assertProjectName('api');
    assertBranchName('api');
  });

  test('reserved list is the spec list', () => {
    assert.equal(RESERVED_USERNAMES.length, 21);
    assert.ok(isReservedUsername('MeTrIcS'));
    assert.ok(!isReservedUsername('admin'));
  });

  test('branch names head and draft are reserved in any case', () => {
    for (const name of ['head', 'HEAD', 'Draft', 'dRaFt']) {
      throwsCode(() => assertBranchName(name), 'RESERVED_NAME', 'This branch name is reserved and cannot be used');
    }
    assertBranchName('heads');
    assertBranchName('master');
    assertProjectName('head');
  });
});

describe('table ids', () => {
  test('accepts valid ids, including a leading double underscore', () => {
    for (const ok of ['posts', 'Posts', '_x', '__x', 'a-b', long, 'strata', 'stratax']) assertTableId(ok);
  });
  test('refuses invalid ids', () => {
    for (const bad of ['', '1posts', '-x', 'a.b', 'a b', tooLong, 5]) throwsCode(() => assertTableId(bad), 'INVALID_TABLE_ID');
  });
  test('strata_ prefix is reserved in any case', () => {
    for (const name of ['strata_', 'strata_x', 'STRATA_rows', 'Strata_']) {
      throwsCode(() => assertTableId(name), 'RESERVED_NAME', 'This table ID is reserved and cannot be used');
    }
  });
});

describe('row ids', () => {
  test('accepts digits first, hyphens and underscores', () => {
    for (const ok of ['1', '42', 'a', '-', '__', 'a-b_c', long]) assertRowId(ok);
  });
  test('refuses invalid ids', () => {
    for (const bad of ['', 'a.b', 'a b', 'a/b', tooLong, 1]) {
      throwsCode(
        () => assertRowId(bad),
        'INVALID_ROW_ID',
        'Row ID must be 1 to 64 characters and contain only letters, digits, underscores and hyphens',
      );
    }
  });
});

describe('property names', () => {
  test('GraphQL-safe names', () => {
    for (const ok of ['a', '_a', 'A1', 'a_b', long]) assert.ok(isValidPropertyName(ok), ok);
    for (const bad of ['', '__a', '1a', 'a-b', 'a b', tooLong, 1]) assert.ok(!isValidPropertyName(bad), String(bad));
  });
});

describe('passwords', () => {
  test('8 to 256 characters of any kind', () => {
    assertPassword('12345678');
    assertPassword('x'.repeat(256));
    assertPassword('🔒'.repeat(8));
    assertPassword('        ');
  });
  test('too short, too long or not a string', () => {
    for (const bad of ['', '1234567', 'x'.repeat(257), '🔒'.repeat(7), '🔒'.repeat(257), 12345678, null]) {
      throwsCode(() => assertPassword(bad), 'INVALID_PASSWORD', 'Password must be 8 to 256 characters');
    }
  });
});

describe('sameIdentifier', () => {
  test('case-insensitive equality', () => {
    assert.ok(sameIdentifier('Blog', 'blog'));
    assert.ok(sameIdentifier('a', 'a'));
    assert.ok(!sameIdentifier('blog', 'blogs'));
    assert.ok(!sameIdentifier('a-b', 'a_b'));
  });
});
