-- The availability document (availability_snapshot.sql) without occupancy and slot usage:
-- what a booking's check reads that only a catalog change can change, and so what a process
-- may keep between bookings (the kept catalog: src/modules/booking/booking-kept-catalog.ts). Every
-- table it reads must carry the catalog_touch trigger (catalog_touch.sql), and everything but
-- 'occupancy' and 'usage' must be written exactly as availability_snapshot writes it
-- (docs/design/architecture.md, Invariants; test/availability/kept-catalog-invariants.int.test.ts checks both).
create or replace function kept_catalog_snapshot(
  p_company uuid, p_service uuid, p_wide_from timestamptz, p_wide_to timestamptz,
  p_from timestamptz, p_to timestamptz, p_exclude uuid[], p_wanted uuid[]
) returns json language plpgsql stable
set plan_cache_mode = force_generic_plan
as $fn$
begin
  return (
with svc as (select id, type, settings, disabled_at, name from service where company_id = p_company and id = p_service),
links as (
  select l.resource_id, l.related_resource_ids, r.name, r.disabled_at
  from service_resource_link l join resource r on r.company_id = l.company_id and r.id = l.resource_id
  where l.company_id = p_company and l.service_id = p_service
),
wanted as (select resource_id, related_resource_ids from links where p_wanted is null or resource_id = any(p_wanted)),
related as (
  select distinct x::uuid as id from wanted,
    lateral jsonb_array_elements_text(case jsonb_typeof(related_resource_ids) when 'array' then related_resource_ids
      else coalesce(related_resource_ids->'all', '[]'::jsonb) || coalesce(related_resource_ids->'any', '[]'::jsonb) end) as x
),
rids as (select resource_id as id from wanted union select id from related)
select json_build_object(
  'service', (select row_to_json(svc) from svc),
  'links', coalesce((select json_agg(json_build_object('resourceId', resource_id, 'name', name, 'disabled', disabled_at is not null, 'related', related_resource_ids) order by name, resource_id) from links where p_wanted is null or resource_id = any(p_wanted)
    or resource_id = (select l1.resource_id from links l1 order by l1.name, l1.resource_id limit 1)), '[]'),
  'resources', coalesce((select json_agg(json_build_object('id', r.id, 'disabled', r.disabled_at is not null)) from resource r where r.company_id = p_company and r.id in (select id from related)), '[]'),
  'hours', coalesce((select json_agg(json_build_object('id', w.id, 'resourceId', w.resource_id, 'priority', w.priority, 'createdAt', (case when abs(date_part('epoch', w.created_at)) < 9.0e9 then round(date_part('epoch', w.created_at) * 1000000) / 1000 else (extract(epoch from w.created_at) * 1000)::float8 end),
      'start', (case when abs(date_part('epoch', w.start_time)) < 9.0e9 then round(date_part('epoch', w.start_time) * 1000000) / 1000 else (extract(epoch from w.start_time) * 1000)::float8 end), 'end', (case when abs(date_part('epoch', w.end_time)) < 9.0e9 then round(date_part('epoch', w.end_time) * 1000000) / 1000 else (extract(epoch from w.end_time) * 1000)::float8 end), 'serviceIds', w.service_ids, 'days', w.working_hours))
    from working_hours_rule w where w.company_id = p_company and w.resource_id in (select id from rids)), '[]'),
  'closings', coalesce((select json_agg(json_build_object('resourceId', c.resource_id, 'start', (case when abs(date_part('epoch', c.start_time)) < 9.0e9 then round(date_part('epoch', c.start_time) * 1000000) / 1000 else (extract(epoch from c.start_time) * 1000)::float8 end), 'end', (case when abs(date_part('epoch', c.end_time)) < 9.0e9 then round(date_part('epoch', c.end_time) * 1000000) / 1000 else (extract(epoch from c.end_time) * 1000)::float8 end), 'serviceIds', c.service_ids))
    from closing_period c where c.company_id = p_company and c.resource_id in (select id from rids) and c.end_time > p_wide_from and c.start_time < p_wide_to), '[]'),
  'occupancy', '[]'::json,
  'prices', coalesce((select json_agg(json_build_object('id', p.id, 'type', p.type, 'priority', p.priority, 'createdAt', (case when abs(date_part('epoch', p.created_at)) < 9.0e9 then round(date_part('epoch', p.created_at) * 1000000) / 1000 else (extract(epoch from p.created_at) * 1000)::float8 end), 'price', p.price,
      'comparedPrice', p.compared_price, 'durationSec', p.duration_sec, 'minDurationSec', p.min_duration_sec, 'maxDurationSec', p.max_duration_sec, 'ticketId', p.ticket_id, 'limitation', p.limitation))
    from price_rule p where p.company_id = p_company and p.service_id = p_service), '[]'),
  'discounts', coalesce((select json_agg(json_build_object('id', d.id, 'type', d.type, 'priority', d.priority, 'createdAt', (case when abs(date_part('epoch', d.created_at)) < 9.0e9 then round(date_part('epoch', d.created_at) * 1000000) / 1000 else (extract(epoch from d.created_at) * 1000)::float8 end), 'sumsUp', d.sums_up, 'rules', d.rules, 'limitation', d.limitation))
    from discount d where d.company_id = p_company and d.service_id = p_service), '[]'),
  'capacity', coalesce((select json_agg(json_build_object('id', k.id, 'type', k.type, 'priority', k.priority, 'createdAt', (case when abs(date_part('epoch', k.created_at)) < 9.0e9 then round(date_part('epoch', k.created_at) * 1000000) / 1000 else (extract(epoch from k.created_at) * 1000)::float8 end), 'spots', k.spots, 'spotsPerTicket', k.spots_per_ticket, 'limitation', k.limitation))
    from capacity_rule k where k.company_id = p_company and k.service_id = p_service), '[]'),
  'slots', coalesce((select json_agg(json_build_object('id', s.id, 'resourceId', s.resource_id, 'start', (case when abs(date_part('epoch', s.start_time)) < 9.0e9 then round(date_part('epoch', s.start_time) * 1000000) / 1000 else (extract(epoch from s.start_time) * 1000)::float8 end), 'durationSec', s.duration_sec, 'rrule', s.rrule,
      'timeZone', s.time_zone, 'until', (case when abs(date_part('epoch', s.until)) < 9.0e9 then round(date_part('epoch', s.until) * 1000000) / 1000 else (extract(epoch from s.until) * 1000)::float8 end), 'exdates', s.exdates))
    from slot s where s.company_id = p_company and s.service_id = p_service and s.start_time < p_to
      and (s.rrule is not null or s.start_time + make_interval(secs => s.duration_sec) > p_from)), '[]'),
  'usage', '[]'::json,
  'tickets', coalesce((select json_agg(json_build_object('id', t.id, 'enabled', t.enabled)) from ticket t where t.company_id = p_company and t.service_id = p_service), '[]')
));
end
$fn$;
