/**
 * Reads the product's own database objects (functions, triggers, views of the `public` schema
 * that no extension owns) from the database's catalog, for the tests of src/db/functions.
 */
export type Query = <T = any>(text: string, params?: unknown[]) => Promise<T[]>;

/** Every function's definition (`pg_get_functiondef`), by name. */
export async function functionDefinitions(q: Query): Promise<Record<string, string>> {
  const rows = await q<{ name: string; def: string }>(
    `select p.proname as name, pg_get_functiondef(p.oid) as def from pg_proc p
     where p.pronamespace = 'public'::regnamespace
       and not exists (select 1 from pg_depend d where d.classid = 'pg_proc'::regclass and d.objid = p.oid and d.deptype = 'e')
     order by 1, 2`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.def]));
}

/** Every trigger's definition (`pg_get_triggerdef`), by `table.trigger`. */
export async function triggerDefinitions(q: Query): Promise<Record<string, string>> {
  const rows = await q<{ name: string; def: string }>(
    `select c.relname || '.' || t.tgname as name, pg_get_triggerdef(t.oid) || case t.tgenabled when 'O' then '' else ' (' || t.tgenabled::text || ')' end as def
     from pg_trigger t join pg_class c on c.oid = t.tgrelid
     where not t.tgisinternal and c.relnamespace = 'public'::regnamespace order by 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.def]));
}

/** Every view's definition (`pg_get_viewdef`), by name. */
export async function viewDefinitions(q: Query): Promise<Record<string, string>> {
  const rows = await q<{ name: string; def: string }>(
    `select c.relname as name, pg_get_viewdef(c.oid) as def from pg_class c
     where c.relkind in ('v', 'm') and c.relnamespace = 'public'::regnamespace
       and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype = 'e')
     order by 1`,
  );
  return Object.fromEntries(rows.map((r) => [r.name, r.def]));
}

/** Functions, triggers and views together, each key prefixed by its kind. */
export async function databaseObjects(q: Query): Promise<Record<string, string>> {
  const prefix = (kind: string, defs: Record<string, string>) => Object.entries(defs).map(([k, v]) => [`${kind} ${k}`, v]);
  return Object.fromEntries([
    ...prefix('function', await functionDefinitions(q)),
    ...prefix('trigger', await triggerDefinitions(q)),
    ...prefix('view', await viewDefinitions(q)),
  ]);
}

/**
 * The tables a function reads, from its text (`pg_depend` does not follow PL/pgSQL bodies):
 * every name after `from` or `join` that is a table of the schema, and those of the product's
 * functions it calls, transitively.
 */
export async function tablesReadBy(q: Query, fn: string): Promise<string[]> {
  const tables = new Set(
    (
      await q<{ name: string }>(
        `select relname as name from pg_class where relkind in ('r', 'p') and relnamespace = 'public'::regnamespace`,
      )
    ).map((r) => r.name),
  );
  const sources = new Map(
    (
      await q<{ name: string; src: string }>(
        `select proname as name, prosrc as src from pg_proc where pronamespace = 'public'::regnamespace`,
      )
    ).map((r) => [r.name, r.src]),
  );
  const read = new Set<string>();
  const seen = new Set<string>();
  const visit = (name: string) => {
    if (seen.has(name)) return;
    seen.add(name);
    const src = sources.get(name);
    if (src === undefined) throw new Error(`no function ${name}`);
    const text = src.replace(/--[^\n]*/g, '');
    for (const m of text.matchAll(/\b(?:from|join)\s+([a-z_][a-z0-9_]*)/gi))
      if (tables.has(m[1].toLowerCase())) read.add(m[1].toLowerCase());
    for (const m of text.matchAll(/\b([a-z_][a-z0-9_]*)\s*\(/gi)) if (sources.has(m[1]) && m[1] !== name) visit(m[1]);
  };
  visit(fn);
  return [...read].sort();
}
