-- `truncate` runs no row trigger: truncating the occupancy gives every week with a version a new
-- one (a week without a version has had no occupancy to lose). On the same tables as
-- occupancy_touch.sql.
create or replace function occupancy_touch_all() returns trigger language plpgsql as $fn$
begin
  update occupancy_version set version = nextval('occupancy_version_seq'), touched_by = pg_current_xact_id();
  return null;
end
$fn$;

create or replace trigger occupancy_touch_all after truncate on booking_occupancy for each statement execute function occupancy_touch_all();
create or replace trigger occupancy_touch_all after truncate on slot_usage for each statement execute function occupancy_touch_all();
