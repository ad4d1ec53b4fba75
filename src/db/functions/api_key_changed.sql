-- Every process caches active API keys; a change to a row of `api_key` (update or delete), by
-- whatever means (the API, the command line, an operator's SQL), is announced on the
-- `api_key_changed` channel with the row's id, and each process drops its copy
-- (src/db/change-feed.ts).
create or replace function api_key_changed() returns trigger language plpgsql as $fn$
begin
  perform pg_notify('api_key_changed', old.id::text);
  return null;
end
$fn$;

create or replace trigger api_key_changed after update or delete on api_key
  for each row execute function api_key_changed();
