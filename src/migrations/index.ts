import type { MigrationObject } from '@mikro-orm/core';
import { Migration20261122000100Company } from './Migration20261122000100Company';

/**
 * Every migration in order. Listed explicitly (not discovered from files) so that the
 * compiled server and the test runner apply exactly the same set.
 */
export const migrationsList: MigrationObject[] = [
  { name: 'Migration20261122000100Company', class: Migration20261122000100Company },
];
