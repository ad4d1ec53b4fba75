-- A column's value as the audit log records it (audit_record.sql), from the value `to_jsonb`
-- gives a row's column and the column's type: a timestamp as the API writes one
-- (`2026-03-02T08:00:00.000Z`, UTC, milliseconds; null when infinite), file contents by their
-- size (`[1234 bytes]`), a bigint as a string (as the ORM reads one); anything else as it is.
-- SQL null (no such side: the `before` of an insert) stays null.
-- One expression with no subquery, so that PostgreSQL inlines it into the trigger's statement
-- instead of calling a function twice per column of every row written.
create or replace function audit_value(p_value jsonb, p_type oid) returns jsonb language sql stable as $fn$
  select case
    when p_value is null or jsonb_typeof(p_value) = 'null' then p_value
    when p_type = 'timestamptz'::regtype then
      case when isfinite((p_value #>> '{}')::timestamptz)
        then to_jsonb(to_char((p_value #>> '{}')::timestamptz at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))
        else 'null'::jsonb end
    when p_type = 'bytea'::regtype then
      to_jsonb('[' || case when left(p_value #>> '{}', 2) = '\x' then (length(p_value #>> '{}') - 2) / 2
                           else octet_length(decode(p_value #>> '{}', 'escape')) end || ' bytes]')
    when p_type = 'int8'::regtype then to_jsonb(p_value #>> '{}')
    else p_value
  end
$fn$;
