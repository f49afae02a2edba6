const ROLE_LABELS: Readonly<Record<string, string>> = {
  organizationOwner: 'Owner',
  organizationAdmin: 'Admin',
  developer: 'Developer',
  editor: 'Editor',
  reader: 'Reader',
  systemAdmin: 'System administrator',
  systemUser: 'User',
};

export function roleLabel(role: string | null | undefined): string {
  if (!role) return 'Guest';
  return ROLE_LABELS[role] ?? role;
}

export const ORGANIZATION_ROLES = ['organizationOwner', 'organizationAdmin', 'developer', 'editor', 'reader'] as const;

/** Whether the role may manage members and service keys (domain.md §8.2). */
export function isOrganizationManager(role: string | null | undefined, systemRole?: string): boolean {
  return role === 'organizationOwner' || role === 'organizationAdmin' || systemRole === 'systemAdmin';
}
