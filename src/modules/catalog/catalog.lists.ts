import { ORDERS, type SortKey } from '../../kernel/connection';

/**
 * The orders of the catalog's lists as cursor keys (kernel/connection.ts), the same as the
 * statements that read them: services by position, creation, id; resources by name, id;
 * tickets and links by creation, id.
 */
const [created, id] = ORDERS.creation;

export const BY_CREATION = ORDERS.creation;
export const BY_NAME: SortKey<{ id: string; createdAt: string; name: string }>[] = [{ column: 'name', of: (n) => n.name }, id];
export const BY_POSITION: SortKey<{ id: string; createdAt: string; position: number }>[] = [
  { column: 'position', type: 'int', of: (n) => n.position },
  created,
  id,
];
