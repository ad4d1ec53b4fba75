-- Everything one availability computation reads, as one JSON document, in one statement.
-- A PL/pgSQL function, so that PostgreSQL keeps the plans of its statements per connection
-- (also behind a pooler in transaction mode): the document has a dozen sub-queries whose
-- planning would otherwise cost more than running them. It keeps one generic plan per
-- statement (plan_cache_mode): with the default, a custom plan of every statement was made on
-- every call (about 1.1 of 1.7 ms of a booking's check); every statement filters by company and
-- service or resource through an index, so the plan does not depend on the values.
--
-- p_wanted: the resources asked for (null = every linked resource); hours, closings and
-- occupancy are read for those and for their related resources only, and only their links and
-- the service's first link (the answer's default context) are written. p_exclude: bookings
-- whose occupancy does not count (a booking being moved).
--
-- Instants are epoch milliseconds as float8: `date_part` gives the epoch in seconds as float8
-- (the microseconds divided once, correctly rounded); times a million it is within a quarter
-- of a microsecond of the whole number of microseconds while that number is below 2^53 (until
-- about the year 2255), so rounding recovers it exactly, and dividing by 1000 rounds the same
-- real number as `(extract(epoch from x) * 1000)::float8`: the same bits. Beyond that, and for
-- infinities, the exact `numeric` form answers (`extract` works in numeric, which was most
-- of the cost of thousands of occupancy bounds).
--
-- Occupancy is grouped by resource as two columns (starts, ends) in start order, an unbounded
-- start first (null, like an unbounded end), from one sort of (resource, start, end) feeding
-- both aggregates. Aggregates read a sorted sub-query in its order in PostgreSQL, though SQL
-- does not promise it; the engine checks the order of every list and sorts one that is not.
--
-- kept_catalog_snapshot.sql is this document without occupancy and slot usage: a change here
-- to anything else is made there too (test/availability/kept-catalog-invariants.int.test.ts compares them).
create or replace function availability_snapshot(
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
  'occupancy', coalesce((select json_agg(json_build_object('r', x.resource_id, 's', x.s, 'e', x.e)) from (
    select y.resource_id, json_agg(y.s) as s, json_agg(y.e) as e from (
      select o.resource_id, (case when abs(date_part('epoch', lower(o.during))) < 9.0e9 then round(date_part('epoch', lower(o.during)) * 1000000) / 1000 else (extract(epoch from lower(o.during)) * 1000)::float8 end) as s, (case when abs(date_part('epoch', upper(o.during))) < 9.0e9 then round(date_part('epoch', upper(o.during)) * 1000000) / 1000 else (extract(epoch from upper(o.during)) * 1000)::float8 end) as e
      from booking_occupancy o where o.company_id = p_company and o.resource_id in (select id from rids) and o.during && tstzrange(p_wide_from, p_wide_to)
        and (p_exclude is null or o.booking_id <> all(p_exclude))
      order by o.resource_id, lower(o.during) nulls first, upper(o.during)) y
    group by y.resource_id) x), '[]'),
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
  'usage', coalesce((select json_agg(json_build_object('resourceId', u.resource_id, 'start', (case when abs(date_part('epoch', u.start_time)) < 9.0e9 then round(date_part('epoch', u.start_time) * 1000000) / 1000 else (extract(epoch from u.start_time) * 1000)::float8 end), 'spots', u.booked_spots, 'perTicket', u.booked_per_ticket))
    from slot_usage u where u.company_id = p_company and u.service_id = p_service and u.start_time >= p_from and u.start_time < p_to), '[]'),
  'tickets', coalesce((select json_agg(json_build_object('id', t.id, 'enabled', t.enabled)) from ticket t where t.company_id = p_company and t.service_id = p_service), '[]')
));
end
$fn$;
