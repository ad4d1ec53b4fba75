import type { Permissions } from './context';

/**
 * Permission strings are `area.action`, `area.*` or `*`, held per company id or under `*`
 * (every company of the merchant).
 */

export const AREAS = [
  'companies',
  'services',
  'resources',
  'rules',
  'slots',
  'bookings',
  'clients',
  'subscriptions',
  'giftcards',
  'promocodes',
  'payments',
  'pdf',
  'webhooks',
  'notifications',
] as const;

export const PERMISSIONS: readonly string[] = [
  ...AREAS.flatMap((a) => [`${a}.read`, `${a}.write`]),
  // client.login issues tokens for any externalUserID: a backend permission, never a widget's.
  'apikeys.write',
  'client.read',
  'client.create',
  'client.login',
  // the audit log is written by every write and only ever read through the API
  'audit.read',
];

const PATTERN_AREAS = [...new Set([...AREAS, 'apikeys', 'client', 'audit'])];

/** Every string a key may hold: `*`, each area's wildcard (`bookings.*`) and each permission. */
export const GRANTABLE: readonly string[] = ['*', ...PATTERN_AREAS.map((a) => `${a}.*`), ...PERMISSIONS];

/** True when a string is a grantable permission or wildcard. */
export function isPermission(p: string): boolean {
  return GRANTABLE.includes(p);
}

/** Does pattern `held` grant `wanted` (itself a permission or a pattern)? */
export function patternCovers(held: string, wanted: string): boolean {
  if (held === '*' || held === wanted) return true;
  if (held.endsWith('.*')) {
    const area = held.slice(0, -2);
    return wanted.startsWith(`${area}.`);
  }
  return false;
}

/** Does the key grant `permission` for `companyId` (or for every company, when `companyId` is `*`)? */
export function grants(perms: Permissions, companyId: string, permission: string): boolean {
  const scopes = companyId === '*' ? ['*'] : ['*', companyId];
  return scopes.some((s) => (perms[s] ?? []).some((held) => patternCovers(held, permission)));
}

/**
 * A key may only hand out what it holds: every requested (scope, pattern) must be covered by
 * one of the creator's patterns in the same scope or under `*`.
 */
export function escalations(creator: Permissions, requested: Permissions): string[] {
  const out: string[] = [];
  for (const [scope, list] of Object.entries(requested)) {
    for (const p of list) if (!grants(creator, scope, p)) out.push(`${scope}: ${p}`);
  }
  return out;
}

/**
 * Could a key holding `creator` have created a key holding `requested`? The same rule as key
 * creation: `apikeys.write` in every scope of the new key and no permission beyond its own.
 * Listing keys uses it, so a company-scoped key never learns of other companies' or wider keys.
 */
export function couldHaveGranted(creator: Permissions, requested: Permissions): boolean {
  return Object.keys(requested).every((scope) => grants(creator, scope, 'apikeys.write')) && escalations(creator, requested).length === 0;
}
