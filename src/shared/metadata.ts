import { DomainError, invalid, type ErrorDetail } from './errors';

/** `metaData` objects and the `metaDataUpdate` semantics of the contract (section 1). */

export type MetaData = Record<string, unknown>;

export interface MetaDataUpdate {
  expectedVersion?: number | null;
  path: string;
  value: unknown;
}

export const METADATA_MAX_BYTES = 64 * 1024;
/** Levels of nesting allowed in `metaData`, the object itself being the first (contract section 3). */
export const METADATA_MAX_DEPTH = 32;

const isPlainObject = (v: unknown): v is MetaData => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Levels of objects and arrays in a JSON value (a scalar is 0, `{}` is 1), counted without
 * recursion and only up to `limit + 1`, so any depth is measured safely.
 */
export function jsonDepth(value: unknown, limit = METADATA_MAX_DEPTH): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    if (depth > max) max = depth;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}

const depthMessage = `must not be nested deeper than ${METADATA_MAX_DEPTH} levels`;

/** Validates an incoming `metaData` value; returns the problems found (empty when fine). */
export function checkMetaData(value: unknown, path = 'metaData'): ErrorDetail[] {
  if (value === undefined || value === null) return [];
  if (!isPlainObject(value)) return [{ path, message: 'must be a JSON object' }];
  // Before anything recursive (stringify, clone) walks it.
  if (jsonDepth(value) > METADATA_MAX_DEPTH) return [{ path, message: depthMessage }];
  if (Buffer.byteLength(JSON.stringify(value)) > METADATA_MAX_BYTES) return [{ path, message: 'must be at most 64 KiB' }];
  return [];
}

// Keys that would reach Object.prototype if used as path segments.
const FORBIDDEN = new Set(['__proto__', 'prototype', 'constructor']);

/** Parses and checks a `metaDataUpdate` object; throws 400 on a malformed one. */
export function parseMetaDataUpdate(raw: unknown, path = 'metaDataUpdate'): MetaDataUpdate {
  if (!isPlainObject(raw)) throw invalid(`${path} must be an object`, [{ path, message: 'must be an object' }]);
  const { expectedVersion, path: keyPath, value } = raw as Record<string, unknown>;
  const details: ErrorDetail[] = [];
  if (
    expectedVersion !== undefined &&
    expectedVersion !== null &&
    (!Number.isInteger(expectedVersion) || (expectedVersion as number) < 1)
  ) {
    details.push({ path: `${path}.expectedVersion`, message: 'must be a positive integer' });
  }
  if (typeof keyPath !== 'string') details.push({ path: `${path}.path`, message: 'must be a string' });
  else if (keyPath !== '' && keyPath.split('.').some((s) => s === '' || FORBIDDEN.has(s))) {
    details.push({ path: `${path}.path`, message: 'must be a dot-separated key path without empty segments' });
  }
  if (!('value' in raw)) details.push({ path: `${path}.value`, message: 'is required (null removes the key)' });
  if (keyPath === '' && !isPlainObject(value)) details.push({ path: `${path}.value`, message: 'must be an object when path is ""' });
  // The value lands under the path's objects: together they must stay within the limit.
  else if (typeof keyPath === 'string' && (keyPath === '' ? 0 : keyPath.split('.').length) + jsonDepth(value) > METADATA_MAX_DEPTH) {
    details.push({ path: `${path}.value`, message: `would make metaData nested deeper than ${METADATA_MAX_DEPTH} levels` });
  }
  if (details.length) throw invalid('invalid metaDataUpdate', details);
  return { expectedVersion: (expectedVersion as number | null | undefined) ?? null, path: keyPath as string, value };
}

/**
 * Applies an update to a metadata object and returns the new object (the input is not
 * mutated). A stale `expectedVersion` is a 409 `version_conflict`.
 */
export function applyMetaDataUpdate(current: MetaData | null | undefined, currentVersion: number, update: MetaDataUpdate): MetaData {
  if (update.expectedVersion !== null && update.expectedVersion !== undefined && update.expectedVersion !== currentVersion) {
    throw new DomainError('version_conflict', `metaData is at version ${currentVersion}, not ${update.expectedVersion}`);
  }
  if (update.path === '') {
    const problem = checkMetaData(update.value, 'metaDataUpdate.value')[0];
    if (problem) throw invalid(`metaData ${problem.message}`, [problem]);
    return structuredClone(update.value) as MetaData;
  }
  const root: MetaData = structuredClone(current ?? {});
  const segments = update.path.split('.');
  let node: MetaData = root;
  for (let i = 0; i < segments.length - 1; i++) {
    const key = segments[i];
    const child = node[key];
    if (!isPlainObject(child)) {
      if (update.value === null) return root; // removing under a missing branch changes nothing
      node[key] = {};
    }
    node = node[key] as MetaData;
  }
  const last = segments[segments.length - 1];
  if (update.value === null) delete node[last];
  else node[last] = structuredClone(update.value);
  const problem = checkMetaData(root)[0];
  if (problem)
    throw invalid(`metaData ${problem.message}`, [
      { path: 'metaDataUpdate.value', message: `would make metaData break the rule: ${problem.message}` },
    ]);
  return root;
}

/** Applies an optional update to a record carrying `metaData` and `metaDataVersion`. */
export function updateRecordMetaData(record: { metaData: MetaData; metaDataVersion: number }, raw: unknown): void {
  if (raw === undefined || raw === null) return;
  const update = parseMetaDataUpdate(raw);
  record.metaData = applyMetaDataUpdate(record.metaData, record.metaDataVersion, update);
  record.metaDataVersion += 1;
}

interface VersionedRow {
  id: string;
  companyId: string;
  metaDataVersion: number;
}

/** What the flush hands an update hook (MikroORM's EventArgs, reduced to what is used here). */
interface UpdateHookArgs {
  entity: VersionedRow;
  meta: { tableName: string };
  changeSet?: { payload: object; originalEntity?: object };
  em: unknown;
}

/**
 * Runs inside the flush's transaction before a record's UPDATE: when the update changes
 * `metaDataVersion`, it lets the update through only if the row still holds the version the
 * change was computed from (the `expectedVersion` when one was sent). Otherwise another request
 * changed the metadata first: 409 `version_conflict`, and the whole flush rolls back.
 */
export async function claimMetaDataVersion({ entity, meta, changeSet, em }: UpdateHookArgs): Promise<void> {
  if (!changeSet || !('metaDataVersion' in changeSet.payload)) return;
  const loaded = (changeSet.originalEntity as { metaDataVersion?: unknown } | undefined)?.metaDataVersion;
  if (typeof loaded !== 'number') return;
  // The row is locked until the flush's transaction ends, as an UPDATE would lock it, so no other
  // request moves the version between this check and the flush's own UPDATE, which then writes
  // the new version with the metadata: one change of the row (one audit log entry), not two.
  const sql = `select 1 from "${meta.tableName}" where id = ? and company_id = ? and meta_data_version = ? for no key update`;
  const rows = await (em as { execute(sql: string, params: unknown[]): Promise<unknown[]> }).execute(sql, [
    entity.id,
    entity.companyId,
    loaded,
  ]);
  if (rows.length !== 1)
    throw new DomainError(
      'version_conflict',
      `metaData was changed by another request (version ${loaded} is no longer current); reload the record and retry`,
    );
}
