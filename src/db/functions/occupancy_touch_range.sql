-- Gives new occupancy versions (occupancy_touch.sql) to the weeks of a resource that the
-- interval [p_lower, p_upper] reaches (`bucket`: weeks since 1970-01-01; an interval without an
-- end, or of more than 60 weeks, touches the resource's open bucket -2147483648 instead, which
-- every reader counts). The weeks are touched in ascending order.
--
-- A week's version only grows: the new value is taken from the sequence once the row is locked,
-- after the version it replaces was taken. So the sum of a resource's versions over the weeks a
-- reader covers grows with every change in them, and the reader compares that one number
-- (availability_kept.sql). The first change of a week in a transaction takes a version, the
-- others in the same transaction leave it (touched_by).
create or replace function occupancy_touch_range(p_company uuid, p_resource uuid, p_lower timestamptz, p_upper timestamptz)
returns void language plpgsql as $fn$
declare
  v_first integer := -2147483648;
  v_last integer := -2147483648;
begin
  if p_lower is not null and p_upper is not null and isfinite(p_lower) and isfinite(p_upper)
    and floor(extract(epoch from p_upper) / 604800) - floor(extract(epoch from p_lower) / 604800) <= 60 then
    v_first := floor(extract(epoch from p_lower) / 604800);
    v_last := floor(extract(epoch from p_upper) / 604800);
  end if;
  for b in v_first..v_last loop
    insert into occupancy_version as v (company_id, resource_id, bucket, version, touched_by)
    values (p_company, p_resource, b, nextval('occupancy_version_seq'), pg_current_xact_id())
    on conflict (company_id, resource_id, bucket) do update set version = nextval('occupancy_version_seq'), touched_by = excluded.touched_by
      where v.touched_by is distinct from excluded.touched_by;
  end loop;
end
$fn$;
