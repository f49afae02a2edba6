/**
 * Stream ids (spec operations §3; the layout is explained in domainEvents.ts). The category is everything before
 * the first `-`. Draft edits live in the branch stream so that a commit is one atomic append.
 */
export const streamCategories = {
  user: 'user',
  organization: 'organization',
  project: 'project',
  branch: 'branch',
  apiKey: 'apikey',
  session: 'session',
  oauth: 'oauth',
  directory: 'directory',
  webhook: 'webhook',
} as const;

export type StreamCategory = (typeof streamCategories)[keyof typeof streamCategories];

export const directoryStreamId = 'directory';
export const userStreamId = (userId: string): string => `user-${userId}`;
export const organizationStreamId = (organizationId: string): string => `organization-${organizationId}`;
export const projectStreamId = (projectId: string): string => `project-${projectId}`;
export const branchStreamId = (branchId: string): string => `branch-${branchId}`;
export const apiKeyStreamId = (keyId: string): string => `apikey-${keyId}`;
export const sessionStreamId = (familyId: string): string => `session-${familyId}`;

export function streamCategory(streamId: string): string {
  const dash = streamId.indexOf('-');
  return dash === -1 ? streamId : streamId.slice(0, dash);
}
