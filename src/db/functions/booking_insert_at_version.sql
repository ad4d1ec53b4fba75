-- booking_insert when the company's catalog is still at p_version; otherwise nothing is written
-- and the call fails with SQLSTATE BKV01 (CATALOG_CHANGED in src/modules/booking/booking-kept-catalog.ts).
-- The check before it read the kept catalog at that version and left the occupancy to the
-- exclusion constraint.
create or replace function booking_insert_at_version(
  p_version bigint, p_company uuid, p_booking jsonb, p_change_id uuid, p_occ_lower timestamptz, p_occ_upper timestamptz,
  p_occ_ids uuid[], p_occ_sources text[], p_events text, p_event_at timestamptz
) returns void language plpgsql volatile as $fn$
begin
  if not exists (select 1 from catalog_version c where c.company_id = p_company and c.version = p_version) then
    raise exception 'the catalog changed since the booking was checked' using errcode = 'BKV01';
  end if;
  perform booking_insert(p_company, p_booking, p_change_id, p_occ_lower, p_occ_upper, p_occ_ids, p_occ_sources, p_events, p_event_at);
end
$fn$;
