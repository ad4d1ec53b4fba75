-- A new booking with everything it holds, in one call: the booking row (a JSON object keyed by
-- column), its first status change, its occupancy (the exclusion constraint on
-- booking_occupancy refuses overlapping time: 23P01), its webhook events (recorded only when an
-- enabled endpoint of the company listens to their type, as kernel/events.ts does) and its
-- audit entries. One statement, so atomic on its own. The company comes first and apart, as in
-- the other functions, so that a database distributed by company can run each call on the
-- company's node (docs/scaling.md); the booking row must belong to it (a foreign key from the
-- other rows to the booking checks it).
--
-- The booking columns are those of the booking store's column list, in its order
-- (src/modules/booking/booking.store.ts; its unit test reads them from this file): a column
-- added to the store is added here too, or it takes its default.
--
-- Why a function: the same work as one statement with its values written into the text cost
-- PostgreSQL a parse, an analysis and a plan of a 4 KB statement on every booking (about a
-- third of the database's CPU in the bookings benchmark); a PL/pgSQL function keeps the plans
-- of its statements per connection, which also works behind a pooler in transaction mode
-- (where protocol-level prepared statements do not, before PgBouncer 1.21). Every statement in
-- it is keyed by ids through an index: one generic plan fits every call.
create or replace function booking_insert(
  p_company uuid, p_booking jsonb, p_change_id uuid, p_occ_lower timestamptz, p_occ_upper timestamptz,
  p_occ_ids uuid[], p_occ_sources text[], p_events text, p_event_at timestamptz, p_audit jsonb
) returns void language plpgsql volatile
set plan_cache_mode = force_generic_plan
as $fn$
declare
  v_company uuid := p_company;
  v_id uuid := (p_booking->>'id')::uuid;
begin
  insert into booking (id, company_id, service_id, resource_id, client_id, type, status, start_time, end_time, duration_sec, spots, tickets, price, currency, booking_policy, related_resource_ids, rrule, recurring_id, client_initiated, payment_url, payment_transaction_id, plugin_data, code, custom_purchase_description, refund_percent, buffer_before_sec, buffer_after_sec, meta_data, meta_data_version, created_at, updated_at)
  select id, company_id, service_id, resource_id, client_id, type, status, start_time, end_time, duration_sec, spots, tickets, price, currency, booking_policy, related_resource_ids, rrule, recurring_id, client_initiated, payment_url, payment_transaction_id, plugin_data, code, custom_purchase_description, refund_percent, buffer_before_sec, buffer_after_sec, meta_data, meta_data_version, created_at, updated_at from jsonb_populate_record(null::booking, p_booking);

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
    insert into audit_entry (id, company_id, merchant_id, actor_type, actor_id, actor_name, action, record_type, record_id, changes, request_id, created_at)
    select id, company_id, merchant_id, actor_type, actor_id, actor_name, action, record_type, record_id, changes, request_id, created_at from jsonb_populate_recordset(null::audit_entry, p_audit);
  end if;
end
$fn$;
