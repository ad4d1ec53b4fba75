/**
 * A trigger that announces every change of a row of `table` (update or delete) on the
 * notification channel of the same name as the function, with the row's id: the processes that
 * cache such rows drop their copy (src/db/change-feed.ts).
 */
export function changeNotifySql(table: string, channel: string): { up: string[]; down: string[] } {
  return {
    up: [
      `create function ${channel}() returns trigger language plpgsql as $$
      begin
        perform pg_notify('${channel}', old.id::text);
        return null;
      end
    $$`,
      `create trigger ${channel} after update or delete on ${table}
      for each row execute function ${channel}()`,
    ],
    down: [`drop trigger ${channel} on ${table}`, `drop function ${channel}()`],
  };
}
