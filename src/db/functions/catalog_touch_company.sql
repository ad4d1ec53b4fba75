-- The company's catalog version becomes a new value of the sequence, once per transaction
-- (called at commit by the deferred catalog_touch trigger): readers see the new version and the
-- new rows together, or neither. Taking the version row's lock at commit, after every other
-- lock the transaction holds, adds no lock-order cycle between two transactions changing one
-- company's catalog. Values come from a sequence, never reused, so a version once seen means
-- that catalog only. A company deleted in the same transaction loses its row.
create or replace function catalog_touch_company(p_company uuid) returns void language plpgsql as $fn$
begin
  if not exists (select 1 from company where id = p_company) then
    delete from catalog_version where company_id = p_company;
    return;
  end if;
  insert into catalog_version as c (company_id, version, touched_by)
    values (p_company, nextval('catalog_version_seq'), pg_current_xact_id())
  on conflict (company_id) do update set version = excluded.version, touched_by = excluded.touched_by
    where c.touched_by is distinct from excluded.touched_by;
end
$fn$;
