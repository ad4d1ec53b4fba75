-- `truncate` runs no row trigger: truncating a catalog table gives every company a new
-- catalog version. On the same tables as catalog_touch.sql.
create or replace function catalog_touch_all() returns trigger language plpgsql as $fn$
begin
  update catalog_version set version = nextval('catalog_version_seq'), touched_by = pg_current_xact_id();
  return null;
end
$fn$;

create or replace trigger catalog_touch_all after truncate on service for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on resource for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on service_resource_link for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on working_hours_rule for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on closing_period for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on price_rule for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on discount for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on capacity_rule for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on slot for each statement execute function catalog_touch_all();
create or replace trigger catalog_touch_all after truncate on ticket for each statement execute function catalog_touch_all();
