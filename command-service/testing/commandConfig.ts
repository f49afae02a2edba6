/** The command service's configuration in tests: the product's default limits, a test secret and admin password. */
export const TEST_COMMAND_CONFIG = {
  jwtSecret: 'an-integration-test-secret-of-32-bytes+',
  accessTokenTtlSeconds: 1800,
  loginMaxFailures: 5,
  loginMaxFailuresPerIp: 50,
  loginWindowMs: 900_000,
  adminPassword: 'admin-password-1',
} as const;
