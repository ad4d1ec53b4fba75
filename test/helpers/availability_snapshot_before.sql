-- availability_snapshot as it was before its occupancy was sorted once in float arithmetic and
-- only the wanted links were written (epoch milliseconds through numeric, occupancy sorted per
-- aggregate): test/snapshot-function.int.test.ts compares the current function with it.
create or replace function availability_snapshot_before(
  p_company uuid, p_service uuid, p_wide_from timestamptz, p_wide_to timestamptz,
  p_from timestamptz, p_to timestamptz, p_exclude uuid[], p_wanted uuid[]
) returns json language plpgsql stable as $fn$
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
  'links', coalesce((select json_agg(json_build_object('resourceId', resource_id, 'name', name, 'disabled', disabled_at is not null, 'related', related_resource_ids) order by name, resource_id) from links), '[]'),
  'resources', coalesce((select json_agg(json_build_object('id', r.id, 'disabled', r.disabled_at is not null)) from resource r where r.company_id = p_company and r.id in (select id from related)), '[]'),
  'hours', coalesce((select json_agg(json_build_object('id', w.id, 'resourceId', w.resource_id, 'priority', w.priority, 'createdAt', (extract(epoch from w.created_at) * 1000)::float8,
      'start', (extract(epoch from w.start_time) * 1000)::float8, 'end', (extract(epoch from w.end_time) * 1000)::float8, 'serviceIds', w.service_ids, 'days', w.working_hours))
    from working_hours_rule w where w.company_id = p_company and w.resource_id in (select id from rids)), '[]'),
  'closings', coalesce((select json_agg(json_build_object('resourceId', c.resource_id, 'start', (extract(epoch from c.start_time) * 1000)::float8, 'end', (extract(epoch from c.end_time) * 1000)::float8, 'serviceIds', c.service_ids))
    from closing_period c where c.company_id = p_company and c.resource_id in (select id from rids) and c.end_time > p_wide_from and c.start_time < p_wide_to), '[]'),
  'occupancy', coalesce((select json_agg(json_build_object('r', x.resource_id, 's', x.s, 'e', x.e)) from (
    select o.resource_id,
      json_agg((extract(epoch from lower(o.during)) * 1000)::float8 order by lower(o.during) nulls first, upper(o.during)) as s,
      json_agg((extract(epoch from upper(o.during)) * 1000)::float8 order by lower(o.during) nulls first, upper(o.during)) as e
    from booking_occupancy o where o.company_id = p_company and o.resource_id in (select id from rids) and o.during && tstzrange(p_wide_from, p_wide_to)
      and (p_exclude is null or o.booking_id <> all(p_exclude))
    group by o.resource_id) x), '[]'),
  'prices', coalesce((select json_agg(json_build_object('id', p.id, 'type', p.type, 'priority', p.priority, 'createdAt', (extract(epoch from p.created_at) * 1000)::float8, 'price', p.price,
      'comparedPrice', p.compared_price, 'durationSec', p.duration_sec, 'minDurationSec', p.min_duration_sec, 'maxDurationSec', p.max_duration_sec, 'ticketId', p.ticket_id, 'limitation', p.limitation))
    from price_rule p where p.company_id = p_company and p.service_id = p_service), '[]'),
  'discounts', coalesce((select json_agg(json_build_object('id', d.id, 'type', d.type, 'priority', d.priority, 'createdAt', (extract(epoch from d.created_at) * 1000)::float8, 'sumsUp', d.sums_up, 'rules', d.rules, 'limitation', d.limitation))
    from discount d where d.company_id = p_company and d.service_id = p_service), '[]'),
  'capacity', coalesce((select json_agg(json_build_object('id', k.id, 'type', k.type, 'priority', k.priority, 'createdAt', (extract(epoch from k.created_at) * 1000)::float8, 'spots', k.spots, 'spotsPerTicket', k.spots_per_ticket, 'limitation', k.limitation))
    from capacity_rule k where k.company_id = p_company and k.service_id = p_service), '[]'),
  'slots', coalesce((select json_agg(json_build_object('id', s.id, 'resourceId', s.resource_id, 'start', (extract(epoch from s.start_time) * 1000)::float8, 'durationSec', s.duration_sec, 'rrule', s.rrule,
      'timeZone', s.time_zone, 'until', (extract(epoch from s.until) * 1000)::float8, 'exdates', s.exdates))
    from slot s where s.company_id = p_company and s.service_id = p_service and s.start_time < p_to
      and (s.rrule is not null or s.start_time + make_interval(secs => s.duration_sec) > p_from)), '[]'),
  'usage', coalesce((select json_agg(json_build_object('resourceId', u.resource_id, 'start', (extract(epoch from u.start_time) * 1000)::float8, 'spots', u.booked_spots, 'perTicket', u.booked_per_ticket))
    from slot_usage u where u.company_id = p_company and u.service_id = p_service and u.start_time >= p_from and u.start_time < p_to), '[]'),
  'tickets', coalesce((select json_agg(json_build_object('id', t.id, 'enabled', t.enabled)) from ticket t where t.company_id = p_company and t.service_id = p_service), '[]')
));
end
$fn$;
