-- What a process needs to answer an availability request from what it keeps
-- (src/modules/availability/kept-availability.ts), in one statement, so in one snapshot:
--
-- * 'catalog': the company's catalog version (null when it has none: nothing is kept then);
-- * 'doc': when that version is not p_catalog, the service's catalog document for
--   [p_from, p_to) with every link (kept_catalog_snapshot; the process picks each request's
--   resources from it);
-- * 'resources': for each resource of p_resources (the resources the request reads, as the
--   process picks them from its catalog document) its occupancy version 'v' over the window: the
--   sum of its versions for the weeks the window reaches and for its open bucket
--   (occupancy_touch_range.sql; each only grows, so the sum changes with any of them; 0: no
--   occupancy ever), and when that is not the version p_versions gives for it, 'o':
--   its occupancy overlapping [p_from, p_to) in availability_snapshot's form and order ('s',
--   'e'), with 'ok' false when an interval is not closed below and open above (the process's
--   overlap test assumes it), and for a group or ticket service (p_usage) 'u': its slot usage of
--   the service starting in the window.
--
-- With an unchanged catalog and occupancy the answer is the versions alone: one primary-key
-- read of catalog_version and one of occupancy_version per resource. When the document comes
-- (the catalog changed, or the process keeps none yet), the process asks again for the
-- resources it then reads that it did not know of.
create or replace function availability_kept(
  p_company uuid, p_service uuid, p_from timestamptz, p_to timestamptz,
  p_catalog bigint, p_resources uuid[], p_versions bigint[], p_usage boolean
) returns text language plpgsql stable
set plan_cache_mode = force_generic_plan
as $fn$
declare
  v_catalog bigint;
  v_first integer := floor(extract(epoch from p_from) / 604800);
  v_last integer := floor(extract(epoch from p_to) / 604800);
begin
  select c.version into v_catalog from catalog_version c where c.company_id = p_company;
  if v_catalog is null then
    return '{"catalog":null}';
  end if;
  return json_build_object('catalog', v_catalog,
    'doc', case when v_catalog is distinct from p_catalog then kept_catalog_snapshot(p_company, p_service, p_from, p_to, p_from, p_to, null, null) end,
    'resources', coalesce((
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
        'u', case when p_usage then (select coalesce(json_agg(json_build_object('resourceId', u.resource_id, 'start', (case when abs(date_part('epoch', u.start_time)) < 9.0e9 then round(date_part('epoch', u.start_time) * 1000000) / 1000 else (extract(epoch from u.start_time) * 1000)::float8 end), 'spots', u.booked_spots, 'perTicket', u.booked_per_ticket)), '[]')
            from slot_usage u
            where u.company_id = p_company and u.service_id = p_service and u.resource_id = k.id and u.start_time >= p_from and u.start_time < p_to) end)
      end)
    from (
      select r.id, r.have,
        coalesce((select sum(ov.version) from occupancy_version ov
          where ov.company_id = p_company and ov.resource_id = r.id and ov.bucket between v_first and v_last), 0)
        + coalesce((select ov.version from occupancy_version ov
          where ov.company_id = p_company and ov.resource_id = r.id and ov.bucket = -2147483648), 0) as v
      from unnest(p_resources, p_versions) as r(id, have)
    ) k), '[]'))::text;
end
$fn$;
