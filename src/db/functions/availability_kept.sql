-- What a process needs to answer an availability request from what it keeps
-- (src/modules/availability/kept-availability.ts), in one statement, so in one snapshot:
--
-- * 'catalog': the company's catalog version (null when it has none: nothing is kept then);
-- * 'doc': when that version is not p_catalog, the service's catalog document for
--   [p_from, p_to) with every link (kept_catalog_snapshot; the process picks each request's
--   resources from it);
-- * 'resources': for each resource of p_resources (and, with a document, each resource a request
--   for p_wanted reads: the wanted links and their related resources, as availability_snapshot
--   picks them) its occupancy version 'v' (occupancy_touch.sql; 0: it never had occupancy), and
--   when that is not the version p_versions gives for it, 'o': its occupancy overlapping
--   [p_from, p_to) in availability_snapshot's form and order ('s', 'e'), with 'ok' false when
--   an interval is not closed below and open above (the process's overlap test assumes it),
--   and for a group or ticket service (p_usage; with a document, the service's type decides)
--   'u': its slot usage of the service starting in the window.
--
-- With an unchanged catalog and occupancy the answer is the versions alone: one primary-key
-- read of catalog_version and one of occupancy_version per resource.
create or replace function availability_kept(
  p_company uuid, p_service uuid, p_from timestamptz, p_to timestamptz, p_wanted uuid[],
  p_catalog bigint, p_resources uuid[], p_versions bigint[], p_usage boolean
) returns text language plpgsql stable
set plan_cache_mode = force_generic_plan
as $fn$
declare
  v_catalog bigint;
  v_doc json;
  v_rids uuid[] := coalesce(p_resources, '{}');
  v_usage boolean := coalesce(p_usage, false);
begin
  select c.version into v_catalog from catalog_version c where c.company_id = p_company;
  if v_catalog is null then
    return '{"catalog":null}';
  end if;
  if v_catalog is distinct from p_catalog then
    v_doc := kept_catalog_snapshot(p_company, p_service, p_from, p_to, p_from, p_to, null, null);
    select coalesce(bool_or(s.type in ('group', 'ticket')), false) into v_usage from service s where s.company_id = p_company and s.id = p_service;
    with links as (
      select l.resource_id, l.related_resource_ids
      from service_resource_link l join resource r on r.company_id = l.company_id and r.id = l.resource_id
      where l.company_id = p_company and l.service_id = p_service
    ),
    wanted as (select resource_id, related_resource_ids from links where p_wanted is null or resource_id = any(p_wanted)),
    related as (
      select distinct x::uuid as id from wanted,
        lateral jsonb_array_elements_text(case jsonb_typeof(related_resource_ids) when 'array' then related_resource_ids
          else coalesce(related_resource_ids->'all', '[]'::jsonb) || coalesce(related_resource_ids->'any', '[]'::jsonb) end) as x
    )
    select array(select unnest(v_rids) union select resource_id from wanted union select id from related) into v_rids;
  end if;
  return json_build_object('catalog', v_catalog, 'doc', v_doc, 'resources', coalesce((
    select json_agg(case when k.have is not distinct from k.v then json_build_object('r', k.id, 'v', k.v)
      else json_build_object('r', k.id, 'v', k.v,
        'o', (select json_build_object(
            'ok', coalesce(bool_and(y.closed_open), true),
            's', coalesce(json_agg(y.s order by y.lo nulls first, y.hi), '[]'),
            'e', coalesce(json_agg(y.e order by y.lo nulls first, y.hi), '[]'))
          from (
            select lower(o.during) as lo, upper(o.during) as hi,
              (lower_inc(o.during) or lower_inf(o.during)) and not upper_inc(o.during) as closed_open,
              (case when abs(date_part('epoch', lower(o.during))) < 9.0e9 then round(date_part('epoch', lower(o.during)) * 1000000) / 1000 else (extract(epoch from lower(o.during)) * 1000)::float8 end) as s,
              (case when abs(date_part('epoch', upper(o.during))) < 9.0e9 then round(date_part('epoch', upper(o.during)) * 1000000) / 1000 else (extract(epoch from upper(o.during)) * 1000)::float8 end) as e
            from booking_occupancy o
            where o.company_id = p_company and o.resource_id = k.id and o.during && tstzrange(p_from, p_to)) y),
        'u', case when v_usage then (select coalesce(json_agg(json_build_object('resourceId', u.resource_id, 'start', (case when abs(date_part('epoch', u.start_time)) < 9.0e9 then round(date_part('epoch', u.start_time) * 1000000) / 1000 else (extract(epoch from u.start_time) * 1000)::float8 end), 'spots', u.booked_spots, 'perTicket', u.booked_per_ticket)), '[]')
            from slot_usage u
            where u.company_id = p_company and u.service_id = p_service and u.resource_id = k.id and u.start_time >= p_from and u.start_time < p_to) end)
      end)
    from (
      select r.id, coalesce(ov.version, 0) as v, g.v as have
      from unnest(v_rids) as r(id)
      left join occupancy_version ov on ov.company_id = p_company and ov.resource_id = r.id
      left join unnest(p_resources, p_versions) as g(id, v) on g.id = r.id
    ) k), '[]'))::text;
end
$fn$;
