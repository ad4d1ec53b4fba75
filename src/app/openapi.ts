import { isInputObjectType, isInterfaceType, isObjectType, type GraphQLNamedType, type GraphQLSchema } from 'graphql';
import { DOC } from '../kernel/graphql-types';
import { CHECKED_BY_SERVICE } from '../kernel/rest';

/**
 * The OpenAPI document of the REST adapter, finished from the route schemas (`kernel/rest.ts`)
 * for client generators:
 *
 * - Texts come from the GraphQL schema, so both APIs say the same thing from one source: a
 *   schema named after a GraphQL type (`S.named('Booking', ...)`, which sets its JSON Schema
 *   `title`) takes the type's description, and each of its properties without a description of
 *   its own takes the description of the GraphQL field of the same name. Path and query
 *   parameters that many routes share are described here.
 * - Every named schema is moved to `components.schemas` under its name and referred to with
 *   `$ref`, so generators emit one `Booking` type instead of a copy per operation.
 * - What services check in requests beyond types (`S.choice`: a closed set) is shown as part of
 *   the field (`enum`).
 *
 * Only the document changes: routes keep validating requests with the schemas as written, and
 * answers are serialised as plain JSON (`app/server.ts`), so nothing here can change a request's
 * outcome or an answer's bytes.
 */

type Json = Record<string, unknown>;

const COMPONENTS = '#/components/schemas/';

/** Descriptions of the parameters shared by many routes, by name. */
const PARAMETERS: Record<string, string> = {
  cid: DOC.companyArg,
  limit: DOC.limit,
  offset: DOC.offset,
  service_id: DOC.serviceArg,
  resource_id: DOC.resourceArg,
  booking_id: 'The booking addressed.',
  client_id: 'The client addressed.',
  key_id: 'The API key addressed.',
  link_id: 'The service-resource link addressed.',
  ticket_id: 'The ticket addressed.',
  rule_id: 'The working hours rule addressed.',
  price_rule_id: 'The price rule addressed.',
  transaction_id: 'The payment transaction addressed.',
  provider: 'The payment provider.',
  code: 'The code asked about: a promo code, a gift card code or a subscription code.',
  entity_type: 'The kind of record the template prints.',
  entity_id: 'The gift card or subscription whose template it is.',
  promo_code_id: 'The promo code addressed.',
  gift_card_id: 'The gift card addressed.',
  contract_id: 'The gift card contract (an issued gift card) addressed.',
  usage_id: 'The gift card usage addressed.',
  subscription_id: 'The subscription addressed.',
  webhook_id: 'The webhook endpoint addressed.',
  delivery_id: 'The webhook delivery addressed.',
  feed_id: 'The calendar feed (its secret identifier).',
  event: 'The notification event.',
  language: 'The language of the template, a BCP 47 tag (`en`, `lv`, `en-GB`).',
  message_id: 'The notification message addressed.',
};

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The GraphQL type a REST schema is the twin of: the type of the same name, or for a REST list's
 * offset page (`BookingPage`: `{total, limit, offset, <items>}`, the Bookla wire shape) the
 * connection of the same records (`BookingConnection`), whose offset form it is.
 */
export function graphqlTwin(graphql: GraphQLSchema, name: string): GraphQLNamedType | undefined {
  return graphql.getType(name) ?? (name.endsWith('Page') ? graphql.getType(`${name.slice(0, -4)}Connection`) : undefined) ?? undefined;
}

/** What a REST offset page's own fields say (the connection's speak of cursors and nodes). */
const PAGE_TEXTS: Record<string, string> = { total: DOC.total, limit: DOC.pageLimit, offset: DOC.pageOffset };

/** The GraphQL descriptions of a type's fields, by field name, when a type has that name. */
function fieldTexts(graphql: GraphQLSchema, name: string): Record<string, string> | undefined {
  const type = graphqlTwin(graphql, name);
  if (!type || !(isObjectType(type) || isInterfaceType(type) || isInputObjectType(type))) return undefined;
  const page = type.name !== name;
  const texts: Record<string, string> = {};
  // An interface's REST twin carries the fields of every form (`AvailableTime` and the spot counts of its slot form).
  const forms = isInterfaceType(type) ? graphql.getPossibleTypes(type) : [];
  for (const t of [...forms, type])
    for (const [field, def] of Object.entries(t.getFields()))
      if (def.description) texts[field] = page ? def.description.replace(/ \(same as nodes\)/, '') : def.description;
  return page ? { ...texts, ...PAGE_TEXTS } : texts;
}

/** A copy of a schema in which the properties of every named schema carry their GraphQL descriptions. */
function describe(node: unknown, graphql: GraphQLSchema): unknown {
  if (Array.isArray(node)) return node.map((n) => describe(n, graphql));
  if (!isObject(node)) return node;
  // what the service checks is part of the field in the document
  const { [CHECKED_BY_SERVICE]: checked, ...rest } = node;
  const field = isObject(checked) ? { ...rest, ...checked } : node;
  const out: Json = {};
  for (const [key, value] of Object.entries(field)) {
    if (key === 'properties' && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, p]) => [name, describe(p, graphql)]));
    else if (key === 'enum' || key === 'required') out[key] = value;
    else out[key] = describe(value, graphql);
  }
  const texts = typeof out.title === 'string' ? fieldTexts(graphql, out.title) : undefined;
  if (texts && isObject(out.properties)) out.properties = withTexts(out.properties, texts);
  return out;
}

/** Properties given the texts named after them, where they have none of their own. */
function withTexts(properties: Json, texts: Record<string, string>): Json {
  return Object.fromEntries(
    Object.entries(properties).map(([name, p]) => [
      name,
      isObject(p) && !p.description && texts[name] ? { ...p, description: texts[name] } : p,
    ]),
  );
}

/**
 * The route schema as the document shows it (the `transform` of `@fastify/swagger`, which
 * hands over the route's own schema: it is copied, never changed).
 */
export function describeRouteSchema(schema: Json | undefined, graphql: GraphQLSchema): Json | undefined {
  if (!schema || schema.hide) return schema;
  const out = describe(schema, graphql) as Json;
  for (const part of ['params', 'querystring', 'headers'])
    if (isObject(out[part]) && isObject((out[part] as Json).properties))
      (out[part] as Json).properties = withTexts((out[part] as Json).properties as Json, PARAMETERS);
  return out;
}

/** JSON text of a value with sorted keys, to compare two schemas given the same name. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (!isObject(value)) return JSON.stringify(value);
  return `{${Object.keys(value)
    .sort()
    .map((k) => `${JSON.stringify(k)}:${canonical(value[k])}`)
    .join(',')}}`;
}

/**
 * Replaces every named schema below `node` with a `$ref` to its component. A description that
 * belongs to the place (a property's, a response's) stays beside the `$ref`; the component's
 * own is its GraphQL type's. Two different shapes under one name are a programming error.
 */
function lift(node: unknown, components: Map<string, Json>, graphql: GraphQLSchema): unknown {
  if (Array.isArray(node)) return node.map((n) => lift(n, components, graphql));
  if (!isObject(node)) return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && isObject(value))
      out[key] = Object.fromEntries(Object.entries(value).map(([name, p]) => [name, lift(p, components, graphql)]));
    else if (key === 'enum' || key === 'required') out[key] = value;
    else out[key] = lift(value, components, graphql);
  }
  if (typeof out.title !== 'string') return out;
  const { title: name, description, ...named } = out;
  // A nullable named schema (`S.nullable`) is the component or null.
  const types = Array.isArray(named.type) ? (named.type as string[]) : undefined;
  const nullable = !!types && types.length > 1 && types.includes('null');
  const rest = types?.filter((t) => t !== 'null');
  const shape = nullable ? { ...named, type: rest!.length === 1 ? rest![0] : rest } : named;
  const text = graphqlTwin(graphql, name)?.description ?? undefined;
  const component = text ? { ...shape, description: text } : shape;
  const known = components.get(name);
  if (known) {
    const { description: _, ...knownShape } = known;
    if (canonical(knownShape) !== canonical(shape))
      throw new Error(`two different schemas are named ${name}:\n${canonical(knownShape)}\n${canonical(shape)}`);
  } else components.set(name, component);
  const ref: Json = { $ref: `${COMPONENTS}${name}` };
  const at: Json = nullable ? { anyOf: [ref, { type: 'null' }] } : ref;
  if (typeof description === 'string' && description !== text) at.description = description;
  return at;
}

/** Could one URL match both path templates (Redocly's `no-ambiguous-paths`)? */
function ambiguous(a: string, b: string): boolean {
  const x = a.split('/');
  const y = b.split('/');
  const variable = (s: string) => /^\{.+\}$/.test(s);
  if (x.length !== y.length || x.filter(variable).length !== y.filter(variable).length) return false;
  return x.every((s, i) => variable(s) || variable(y[i]) || s === y[i]);
}

const METHODS = new Set(['get', 'put', 'post', 'patch', 'delete']);

/**
 * A path one URL could share with another path (`/payments/providers/{provider}` beside the
 * contract's `/payments/{transaction_id}/refunds`) is listed once per value of its parameter
 * when the parameter is a closed set (`/payments/providers/stripe`, ...), each operation with
 * the value in its operationId, so that tools that route by template read it unambiguously.
 */
function unambiguous(paths: Record<string, Record<string, Json>>): Record<string, Record<string, Json>> {
  const out: Record<string, Record<string, Json>> = {};
  for (const [path, item] of Object.entries(paths)) {
    const closed = Object.keys(paths).some((other) => other !== path && ambiguous(path, other))
      ? Object.values(item)
          .flatMap((op) => (isObject(op) && Array.isArray(op.parameters) ? (op.parameters as Json[]) : []))
          .find((p) => p.in === 'path' && Array.isArray((p.schema as Json | undefined)?.enum))
      : undefined;
    if (!closed) {
      out[path] = item;
      continue;
    }
    for (const value of ((closed.schema as Json).enum as unknown[]).filter((v): v is string => typeof v === 'string')) {
      out[path.replace(`{${String(closed.name)}}`, value)] = Object.fromEntries(
        Object.entries(item).map(([method, op]) => {
          if (!METHODS.has(method) || !isObject(op)) return [method, op];
          const parameters = (op.parameters as Json[]).filter((p) => !(p.in === 'path' && p.name === closed.name));
          return [
            method,
            {
              ...op,
              operationId: `${String(op.operationId)}${value[0].toUpperCase()}${value.slice(1)}`,
              summary: `${String(op.summary)} (${value})`,
              parameters,
            },
          ];
        }),
      );
    }
  }
  return out;
}

/**
 * The document as served (the `transformObject` of `@fastify/swagger`): named schemas lifted
 * to components, answers described by the record they carry, ambiguous paths spelt out.
 */
export function finishDocument(document: Json, graphql: GraphQLSchema): Json {
  const components = new Map<string, Json>();
  const paths = unambiguous(lift(document.paths, components, graphql) as Record<string, Record<string, Json>>);
  for (const item of Object.values(paths)) {
    for (const operation of Object.values(item)) {
      if (!isObject(operation.responses)) continue;
      for (const response of Object.values(operation.responses as Record<string, Json>)) {
        const schema = (response.content as Record<string, { schema?: Json }> | undefined)?.['application/json']?.schema;
        const name = typeof schema?.$ref === 'string' ? schema.$ref.slice(COMPONENTS.length) : undefined;
        const text = name ? components.get(name)?.description : undefined;
        if (response.description === 'Default Response' && typeof text === 'string') response.description = text;
      }
    }
  }
  const schemas = Object.fromEntries([...components].sort(([a], [b]) => a.localeCompare(b)));
  const existing = (document.components ?? {}) as Json;
  return { ...document, paths, components: { ...existing, schemas: { ...(existing.schemas as Json | undefined), ...schemas } } };
}
