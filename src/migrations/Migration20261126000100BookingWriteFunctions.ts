import { Migration } from '@mikro-orm/migrations';

/**
 * The columns `booking_insert` writes, in the order of the booking store's column list
 * (src/modules/booking/booking.store.ts; a unit test keeps the two equal). A column added to
 * the booking table later takes its default here until a new migration lists it.
 */
export const BOOKING_INSERT_COLUMNS = [
  'id',
  'company_id',
  'service_id',
  'resource_id',
  'client_id',
  'type',
  'status',
  'start_time',
  'end_time',
  'duration_sec',
  'spots',
  'tickets',
  'price',
  'currency',
  'booking_policy',
  'related_resource_ids',
  'rrule',
  'recurring_id',
  'client_initiated',
  'payment_url',
  'payment_transaction_id',
  'plugin_data',
  'code',
  'custom_purchase_description',
  'refund_percent',
  'buffer_before_sec',
  'buffer_after_sec',
  'meta_data',
  'meta_data_version',
  'created_at',
  'updated_at',
] as const;

const AUDIT_COLUMNS =
  'id, company_id, merchant_id, actor_type, actor_id, actor_name, action, record_type, record_id, changes, request_id, created_at';

const cols = BOOKING_INSERT_COLUMNS.join(', ');

/**
 * A new booking with everything it holds, in one call: the booking row (a JSON object keyed by
 * column), its first status change, its occupancy (the exclusion constraint on
 * booking_occupancy refuses overlapping time: 23P01), its webhook events (recorded only when an
 * enabled endpoint of the company listens to their type, as `kernel/events.ts` does) and its
 * audit entries. One statement, so atomic on its own. The company comes first and apart, as in
 * the other functions, so that a database distributed by company can run each call on the
 * company's node (docs/scaling.md); the booking row must belong to it (a foreign key from the
 * other rows to the booking checks it).
 *
 * Why a function: the same work as one statement with its values written into the text cost
 * PostgreSQL a parse, an analysis and a plan of a 4 KB statement on every booking (about a
 * third of the database's CPU in the bookings benchmark); a PL/pgSQL function keeps the plans
 * of its statements per connection, which also works behind a pooler in transaction mode
 * (where protocol-level prepared statements do not, before PgBouncer 1.21).
 */
const BOOKING_INSERT = `
create or replace function booking_insert(
  p_company uuid, p_booking jsonb, p_change_id uuid, p_occ_lower timestamptz, p_occ_upper timestamptz,
  p_occ_ids uuid[], p_occ_sources text[], p_events text, p_event_at timestamptz, p_audit jsonb
) returns void language plpgsql volatile as $fn$
declare
  v_company uuid := p_company;
  v_id uuid := (p_booking->>'id')::uuid;
begin
  insert into booking (${cols})
  select ${cols} from jsonb_populate_record(null::booking, p_booking);

  insert into booking_status_change (id, company_id, booking_id, old_status, new_status, created_at)
  values (p_change_id, v_company, v_id, null, p_booking->>'status', (p_booking->>'created_at')::timestamptz);

  if p_occ_ids is not null then
    insert into booking_occupancy (company_id, booking_id, resource_id, source, during)
    select v_company, v_id, r.id, r.source, tstzrange(p_occ_lower, p_occ_upper, '[)')
    from unnest(p_occ_ids, p_occ_sources) as r(id, source);
  end if;

  -- the events' JSON (about a kilobyte each) is read only when an endpoint may want them
  if p_events is not null and exists (select 1 from webhook_endpoint e where e.company_id = v_company and e.enabled) then
    with wh_in as (
      select * from jsonb_to_recordset(p_events::jsonb) as x(id uuid, type text, body jsonb)
    ), wh_ep as (
      select e.id as endpoint_id, i.id as event_id from wh_in i
        join webhook_endpoint e on e.company_id = v_company and e.enabled and i.type = any(e.event_types)
    ), wh_ev as (
      insert into webhook_event (id, company_id, type, payload, occurred_at)
      select i.id, v_company, i.type, i.body, p_event_at from wh_in i where i.id in (select event_id from wh_ep)
      returning id
    )
    insert into webhook_delivery (id, company_id, endpoint_id, event_id, next_attempt_at, created_at, updated_at)
    select gen_random_uuid(), v_company, p.endpoint_id, p.event_id, p_event_at, p_event_at, p_event_at
      from wh_ep p join wh_ev v on v.id = p.event_id;
  end if;

  if p_audit is not null then
    insert into audit_entry (${AUDIT_COLUMNS})
    select ${AUDIT_COLUMNS} from jsonb_populate_recordset(null::audit_entry, p_audit);
  end if;
end
$fn$`;

const INSERT_SIGNATURE = 'booking_insert(uuid, jsonb, uuid, timestamptz, timestamptz, uuid[], text[], text, timestamptz, jsonb)';

/**
 * The service, the resource and (when `p_with_snapshot`) the availability document of a new
 * booking's check, in one call: the statement that carried them as sub-queries was parsed and
 * planned on every booking.
 */
const BOOKING_DOCUMENTS = `
create or replace function booking_documents(
  p_company uuid, p_service uuid, p_resource uuid, p_with_snapshot boolean,
  p_wide_from timestamptz, p_wide_to timestamptz, p_from timestamptz, p_to timestamptz, p_exclude uuid[], p_wanted uuid[]
) returns table (s json, r json, snap json) language plpgsql stable as $fn$
begin
  return query select
    (select row_to_json(x) from service x where x.company_id = p_company and x.id = p_service),
    (select row_to_json(y) from resource y where y.company_id = p_company and y.id = p_resource),
    case when p_with_snapshot
      then availability_snapshot(p_company, p_service, p_wide_from, p_wide_to, p_from, p_to, p_exclude, p_wanted) end;
end
$fn$`;

const DOCUMENTS_SIGNATURE =
  'booking_documents(uuid, uuid, uuid, boolean, timestamptz, timestamptz, timestamptz, timestamptz, uuid[], uuid[])';

export class Migration20261126000100BookingWriteFunctions extends Migration {
  override async up(): Promise<void> {
    this.addSql(BOOKING_INSERT);
    // every statement in them is keyed by ids through an index: one plan fits every call
    this.addSql(`alter function ${INSERT_SIGNATURE} set plan_cache_mode = force_generic_plan`);
    this.addSql(BOOKING_DOCUMENTS);
    this.addSql(`alter function ${DOCUMENTS_SIGNATURE} set plan_cache_mode = force_generic_plan`);
  }

  override async down(): Promise<void> {
    this.addSql(`drop function if exists ${INSERT_SIGNATURE}`);
    this.addSql(`drop function if exists ${DOCUMENTS_SIGNATURE}`);
  }
}
