-- Every process caches company rows; a change to a row of `company` (update or delete), by
-- whatever means (the API, the command line, an operator's SQL), is announced on the
-- `company_changed` channel with the row's id, and each process drops its copy
-- (src/db/change-feed.ts).
create or replace function company_changed() returns trigger language plpgsql as $fn$
begin
  perform pg_notify('company_changed', old.id::text);
  return null;
end
$fn$;

create or replace trigger company_changed after update or delete on company
  for each row execute function company_changed();
