-- A new booking with everything it holds, in one call: the booking row (a JSON object keyed by
-- column), its first status change, its occupancy (the exclusion constraint on
-- booking_occupancy refuses overlapping time: 23P01), its webhook events (through
-- webhook_enqueue, the outbox's one enqueue: recorded only when an enabled endpoint of the
-- company listens to their type) and its e-mail notifications (notification_enqueue). One
-- statement, so atomic on its own. The audit log's trigger records the rows it writes
-- (audit_record.sql), under the scope the caller's statement opens (`from audit_begin(...)`).
-- The company comes first and apart, as in the other functions, so that a database distributed
-- by company can run each call on the company's node (docs/design/scaling.md); the booking row must
-- belong to it (a foreign key from the other rows to the booking checks it).
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
  p_occ_ids uuid[], p_occ_sources text[], p_events text, p_event_at timestamptz
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

  perform webhook_enqueue(p_company => v_company, p_events => p_events, p_at => p_event_at);
  perform notification_enqueue(p_company => v_company, p_events => p_events, p_at => p_event_at);
end
$fn$;
