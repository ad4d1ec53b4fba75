-- A column's value as the audit log records it (audit_record.sql), from the value `to_jsonb`
-- gives a row's column and the column's type: a timestamp as the API writes one
-- (`2026-03-02T08:00:00.000Z`, UTC, milliseconds; null when infinite), file contents by their
-- size (`[1234 bytes]`), a bigint as a string (as the ORM reads one); anything else as it is.
-- SQL null (no such side: the `before` of an insert) stays null.
create or replace function audit_value(p_value jsonb, p_type oid) returns jsonb language sql stable as $fn$
  select case
    when p_value is null or jsonb_typeof(p_value) = 'null' then p_value
    when p_type = 'timestamptz'::regtype then (
      select case when isfinite(t) then to_jsonb(to_char(t at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) else 'null'::jsonb end
      from (select (p_value #>> '{}')::timestamptz as t) v)
    when p_type = 'bytea'::regtype then (
      select to_jsonb('[' || case when left(s, 2) = '\x' then (length(s) - 2) / 2 else octet_length(decode(s, 'escape')) end || ' bytes]')
      from (select p_value #>> '{}' as s) v)
    when p_type = 'int8'::regtype then to_jsonb(p_value #>> '{}')
    else p_value
  end
$fn$;
