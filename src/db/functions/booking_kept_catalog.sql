-- What a process keeps to check bookings of one resource without reading the catalog again
-- (the kept catalog: src/modules/booking/booking-kept-catalog.ts): the catalog version, the service
-- and resource rows, and the availability document without occupancy for [p_from, p_to). One
-- statement, one snapshot: the version belongs to the rows. The version is null when the
-- company has none yet (nothing is kept then).
create or replace function booking_kept_catalog(p_company uuid, p_service uuid, p_resource uuid, p_from timestamptz, p_to timestamptz)
returns table (v bigint, s json, r json, snap json) language plpgsql stable as $fn$
begin
  return query select
    (select c.version from catalog_version c where c.company_id = p_company),
    (select row_to_json(x) from service x where x.company_id = p_company and x.id = p_service),
    (select row_to_json(y) from resource y where y.company_id = p_company and y.id = p_resource),
    kept_catalog_snapshot(p_company, p_service, p_from, p_to, p_from, p_to, null, array[p_resource]);
end
$fn$;
