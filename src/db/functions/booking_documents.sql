-- The service, the resource and (when p_with_snapshot) the availability document of a new
-- booking's check, in one call: the statement that carried them as sub-queries was parsed and
-- planned on every booking. Keyed by ids through an index: one generic plan fits every call.
create or replace function booking_documents(
  p_company uuid, p_service uuid, p_resource uuid, p_with_snapshot boolean,
  p_wide_from timestamptz, p_wide_to timestamptz, p_from timestamptz, p_to timestamptz, p_exclude uuid[], p_wanted uuid[]
) returns table (s json, r json, snap json) language plpgsql stable
set plan_cache_mode = force_generic_plan
as $fn$
begin
  return query select
    (select row_to_json(x) from service x where x.company_id = p_company and x.id = p_service),
    (select row_to_json(y) from resource y where y.company_id = p_company and y.id = p_resource),
    case when p_with_snapshot
      then availability_snapshot(p_company, p_service, p_wide_from, p_wide_to, p_from, p_to, p_exclude, p_wanted) end;
end
$fn$;
