import { Migration } from '@mikro-orm/migrations';
import { SNAPSHOT_FUNCTION_CHEAPER } from './Migration20261126000200SnapshotCheaper';

/**
 * The tables a booking's check reads besides the occupancy: the catalog and its rules. A
 * change of any of their rows gives the company a new catalog version.
 */
export const CATALOG_TABLES = [
  'service',
  'resource',
  'service_resource_link',
  'working_hours_rule',
  'closing_period',
  'price_rule',
  'discount',
  'capacity_rule',
  'slot',
  'ticket',
] as const;

/** SQLSTATE of `booking_insert_at_version` when the catalog changed since the check's document was read. */
export const CATALOG_CHANGED = 'BKV01';

/**
 * The company's catalog version becomes a new value of the sequence, at commit (a deferred
 * trigger), once per transaction: readers see the new version and the new rows together, or
 * neither. Taking the version row's lock at commit, after every other lock the transaction
 * holds, adds no lock-order cycle between two transactions changing one company's catalog.
 * Values come from a sequence, never reused, so a version once seen means that catalog only.
 * A company deleted in the same transaction loses its row.
 */
const TOUCH_COMPANY = `
create function catalog_touch_company(p_company uuid) returns void language plpgsql as $fn$
begin
  if not exists (select 1 from company where id = p_company) then
    delete from catalog_version where company_id = p_company;
    return;
  end if;
  insert into catalog_version as c (company_id, version, touched_by)
    values (p_company, nextval('catalog_version_seq'), pg_current_xact_id())
  on conflict (company_id) do update set version = excluded.version, touched_by = excluded.touched_by
    where c.touched_by is distinct from excluded.touched_by;
end
$fn$`;

const TOUCH = `
create function catalog_touch() returns trigger language plpgsql as $fn$
begin
  if tg_op <> 'INSERT' then
    perform catalog_touch_company(old.company_id);
  end if;
  if tg_op <> 'DELETE' and (tg_op = 'INSERT' or new.company_id is distinct from old.company_id) then
    perform catalog_touch_company(new.company_id);
  end if;
  return null;
end
$fn$`;

/** `truncate` runs no row trigger: every company gets a new version. */
const TOUCH_ALL = `
create function catalog_touch_all() returns trigger language plpgsql as $fn$
begin
  update catalog_version set version = nextval('catalog_version_seq'), touched_by = pg_current_xact_id();
  return null;
end
$fn$`;

/**
 * The availability document without occupancy and slot usage: what a booking's check reads
 * that only a catalog change can change. Built from the current `availability_snapshot`, so
 * the two cannot drift apart in what they share.
 */
function staticSnapshotFunction(): string {
  const name = 'create or replace function availability_snapshot(';
  const occupancy = /'occupancy', coalesce\(\(select json_agg[\s\S]*?group by y\.resource_id\) x\), '\[\]'\),/;
  const usage = /'usage', coalesce\(\(select json_agg[\s\S]*?u\.start_time < p_to\), '\[\]'\),/;
  let text = SNAPSHOT_FUNCTION_CHEAPER;
  for (const [what, re, by] of [
    ['the name', name, 'create or replace function availability_static_snapshot('],
    ['the occupancy', occupancy, `'occupancy', '[]'::json,`],
    ['the usage', usage, `'usage', '[]'::json,`],
  ] as const) {
    const next = text.replace(re, by);
    if (next === text) throw new Error(`availability_static_snapshot: ${what} not found`);
    text = next;
  }
  return text;
}

const STATIC_SIGNATURE = 'availability_static_snapshot(uuid, uuid, timestamptz, timestamptz, timestamptz, timestamptz, uuid[], uuid[])';

/**
 * What a process keeps to check bookings of one resource without reading the catalog again:
 * the catalog version, the service and resource rows, and the document without occupancy for
 * [p_from, p_to). One statement, one snapshot: the version belongs to the rows. The version is
 * null when the company has none yet (nothing is kept then).
 */
const BOOKING_STATIC = `
create function booking_static(p_company uuid, p_service uuid, p_resource uuid, p_from timestamptz, p_to timestamptz)
returns table (v bigint, s json, r json, snap json) language plpgsql stable as $fn$
begin
  return query select
    (select c.version from catalog_version c where c.company_id = p_company),
    (select row_to_json(x) from service x where x.company_id = p_company and x.id = p_service),
    (select row_to_json(y) from resource y where y.company_id = p_company and y.id = p_resource),
    availability_static_snapshot(p_company, p_service, p_from, p_to, p_from, p_to, null, array[p_resource]);
end
$fn$`;

/**
 * `booking_insert` when the catalog is still at `p_version`; otherwise nothing is written and
 * the call fails with SQLSTATE BKV01. The check before it read the catalog at that version
 * and left the occupancy to the exclusion constraint (src/modules/booking/booking-static.ts).
 */
const INSERT_AT_VERSION = `
create function booking_insert_at_version(
  p_version bigint, p_company uuid, p_booking jsonb, p_change_id uuid, p_occ_lower timestamptz, p_occ_upper timestamptz,
  p_occ_ids uuid[], p_occ_sources text[], p_events text, p_event_at timestamptz, p_audit jsonb
) returns void language plpgsql volatile as $fn$
begin
  if not exists (select 1 from catalog_version c where c.company_id = p_company and c.version = p_version) then
    raise exception 'the catalog changed since the booking was checked' using errcode = '${CATALOG_CHANGED}';
  end if;
  perform booking_insert(p_company, p_booking, p_change_id, p_occ_lower, p_occ_upper, p_occ_ids, p_occ_sources, p_events, p_event_at, p_audit);
end
$fn$`;

const INSERT_AT_VERSION_SIGNATURE =
  'booking_insert_at_version(bigint, uuid, jsonb, uuid, timestamptz, timestamptz, uuid[], text[], text, timestamptz, jsonb)';

/**
 * A catalog version per company, so that a booking's check can use a document kept in the
 * process: the insert itself verifies that the version it was checked at is still current.
 */
export class Migration20261127000100CatalogVersion extends Migration {
  override async up(): Promise<void> {
    this.addSql('create sequence catalog_version_seq');
    this.addSql('create table catalog_version (company_id uuid primary key, version bigint not null, touched_by xid8)');
    this.addSql(`insert into catalog_version (company_id, version) select id, nextval('catalog_version_seq') from company`);
    this.addSql(TOUCH_COMPANY);
    this.addSql(TOUCH);
    this.addSql(TOUCH_ALL);
    for (const t of CATALOG_TABLES) {
      this.addSql(
        `create constraint trigger catalog_touch after insert or update or delete on ${t} deferrable initially deferred for each row execute function catalog_touch()`,
      );
      this.addSql(`create trigger catalog_touch_all after truncate on ${t} for each statement execute function catalog_touch_all()`);
    }
    this.addSql(staticSnapshotFunction());
    this.addSql(`alter function ${STATIC_SIGNATURE} set plan_cache_mode = force_generic_plan`);
    this.addSql(BOOKING_STATIC);
    this.addSql(INSERT_AT_VERSION);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function ${INSERT_AT_VERSION_SIGNATURE}`);
    this.addSql('drop function booking_static(uuid, uuid, uuid, timestamptz, timestamptz)');
    this.addSql(`drop function ${STATIC_SIGNATURE}`);
    for (const t of CATALOG_TABLES) {
      this.addSql(`drop trigger catalog_touch on ${t}`);
      this.addSql(`drop trigger catalog_touch_all on ${t}`);
    }
    this.addSql('drop function catalog_touch_all()');
    this.addSql('drop function catalog_touch()');
    this.addSql('drop function catalog_touch_company(uuid)');
    this.addSql('drop table catalog_version');
    this.addSql('drop sequence catalog_version_seq');
  }
}
