-- Live updates (GraphQL subscription `availabilityChanged`, src/kernel/live.ts): a change to a
-- row that available times are computed from (availability_snapshot.sql) is announced on the
-- `availability_changed` channel, at commit only (NOTIFY is transactional), whoever writes it.
-- Every API process tells its subscribers of the company which part of their window to fetch
-- again.
--
-- The payload: {"c": company, "k": table, "s": service, "r": resource, "f": from, "u": until}; a key is
-- null when the change is not limited by it (a working-hours rule concerns every service of its
-- resource; a price rule every resource of its service; a rule without dates every time). The
-- trigger's argument says where the time is: `occupancy` (booking_occupancy.during: bookings,
-- holds, blocked related resources, cancellations), `usage` (slot_usage.start_time, the spots
-- taken at a slot occurrence), `closing` (closing_period start and end), anything else none.
-- An update announces the row before and after (a closing period moved from one week to
-- another changes both). Identical payloads of one transaction are delivered once.
--
-- As for booking_changed.sql, only a company someone watches (live_watch, kind `availability`)
-- is announced.
--
-- Every table availability_snapshot.sql reads must be listed here; the company row itself
-- (its time zone) is announced by company_changed.sql.
create or replace function availability_changed() returns trigger language plpgsql as $fn$
declare
  v_row jsonb;
  v_from timestamptz;
  v_until timestamptz;
begin
  if not exists (select 1 from live_watch w where w.kind = 'availability' and w.expires_at > now()
      and w.company_id = ((case when tg_op = 'DELETE' then to_jsonb(old) else to_jsonb(new) end)->>'company_id')::uuid) then
    return null;
  end if;
  foreach v_row in array case tg_op when 'INSERT' then array[to_jsonb(new)] when 'DELETE' then array[to_jsonb(old)]
      else array[to_jsonb(old), to_jsonb(new)] end loop
    v_from := null;
    v_until := null;
    if tg_argv[0] = 'occupancy' then
      v_from := lower((v_row->>'during')::tstzrange);
      v_until := upper((v_row->>'during')::tstzrange);
    elsif tg_argv[0] = 'usage' then
      v_from := (v_row->>'start_time')::timestamptz;
      v_until := v_from;
    elsif tg_argv[0] = 'closing' then
      v_from := (v_row->>'start_time')::timestamptz;
      v_until := (v_row->>'end_time')::timestamptz;
    end if;
    perform pg_notify('availability_changed', json_build_object(
      'c', v_row->>'company_id', 'k', tg_table_name,
      's', case when tg_table_name = 'service' then v_row->>'id' else v_row->>'service_id' end,
      'r', case when tg_table_name = 'resource' then v_row->>'id' else v_row->>'resource_id' end,
      'f', v_from, 'u', v_until)::text);
  end loop;
  return null;
end
$fn$;

create or replace trigger availability_changed after insert or update or delete on booking_occupancy
  for each row execute function availability_changed('occupancy');
create or replace trigger availability_changed after insert or update or delete on slot_usage
  for each row execute function availability_changed('usage');
create or replace trigger availability_changed after insert or update or delete on closing_period
  for each row execute function availability_changed('closing');
create or replace trigger availability_changed after insert or update or delete on working_hours_rule
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on service
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on resource
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on service_resource_link
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on price_rule
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on discount
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on capacity_rule
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on slot
  for each row execute function availability_changed('rule');
create or replace trigger availability_changed after insert or update or delete on ticket
  for each row execute function availability_changed('rule');
