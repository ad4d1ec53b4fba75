import { GraphQLScalarType, Kind } from 'graphql';
import {
  CurrencyResolver,
  DateTimeResolver,
  DurationResolver,
  GraphQLJSON,
  GraphQLJSONObject,
  HexColorCodeResolver,
} from 'graphql-scalars';
import { parseLocalTime } from '../shared/duration';
import { formatTimestamp } from '../shared/time';

/**
 * The custom scalars of the public schema. Each carries a description and `@specifiedBy`, and
 * docs/getting-started.md maps each to a TypeScript type for generated clients (graphql-codegen `scalars`).
 * Output values are rendered exactly as the REST adapter renders them.
 */

/** An instant as formatTimestamp writes it, on a day that exists in every month. */
const CANONICAL_INSTANT = /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|1\d|2[0-8])T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d(?:\.(?!000)\d{3})?Z$/;

/** `2026-12-01T07:00:00Z`: UTC, `Z`, milliseconds only when there are some (the REST form). */
export const DateTimeScalar = new GraphQLScalarType({
  ...DateTimeResolver.toConfig(),
  name: 'DateTime',
  description:
    'An instant as an RFC 3339 timestamp. Answers are in UTC with `Z` and milliseconds only when non-zero (`2026-12-01T07:00:00Z`), ' +
    'exactly as the REST adapter renders them; arguments may carry any offset (`2026-12-01T09:00:00+02:00`).',
  specifiedByURL: 'https://datatracker.ietf.org/doc/html/rfc3339#section-5.6',
  serialize(value) {
    // Records answered in their REST form already hold the canonical text: it is its own rendering
    // (days past the 28th are parsed, since Date.parse rolls 31 April over into May).
    if (typeof value === 'string' && CANONICAL_INSTANT.test(value)) return value;
    const ms = value instanceof Date ? value.getTime() : typeof value === 'string' ? Date.parse(value) : value;
    const text = typeof ms === 'number' ? formatTimestamp(ms) : null;
    if (text === null) throw new TypeError('DateTime cannot represent this value');
    return text;
  },
});

/** ISO 8601 durations in the normalised form the services produce (`PT1H30M`, `P1D`). */
export const DurationScalar = new GraphQLScalarType({
  ...DurationResolver.toConfig(),
  name: 'Duration',
  description: 'An ISO 8601 duration such as `PT30M`, `PT1H30M` or `P1D`; answers use the normalised form, as REST does.',
  specifiedByURL: 'https://en.wikipedia.org/wiki/ISO_8601#Durations',
});

export const HexColorCodeScalar = new GraphQLScalarType({
  ...HexColorCodeResolver.toConfig(),
  name: 'HexColorCode',
  description: 'A color as `#RRGGBB`.',
  specifiedByURL: 'https://www.w3.org/TR/css-color-4/#hex-notation',
});

export const CurrencyScalar = new GraphQLScalarType({
  ...CurrencyResolver.toConfig(),
  name: 'Currency',
  description: 'An ISO 4217 currency code in upper case (`EUR`).',
  specifiedByURL: 'https://www.iso.org/iso-4217-currency-codes.html',
});

/** Merchant-defined `metaData`: the only free-form objects of the schema. */
export const JSONObjectScalar = new GraphQLScalarType({
  ...GraphQLJSONObject.toConfig(),
  name: 'JSONObject',
  description: 'A JSON object of merchant-defined keys and values (`metaData`, at most 64 KiB).',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc8259#section-4',
});

/** Any JSON value: the `value` of a `metaDataUpdate`. */
export const JSONScalar = new GraphQLScalarType({
  ...GraphQLJSON.toConfig(),
  name: 'JSON',
  description: 'Any JSON value (object, array, string, number, boolean or null); used for the value of a metaData update.',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc8259',
});

/** `HH:MM` 24-hour local time of day (`24:00` allowed as an end of day). */
export const LocalTimeScalar = new GraphQLScalarType({
  name: 'LocalTime',
  description: 'A local time of day `HH:MM` (24 h) in the company time zone; `24:00` marks the end of a day where allowed.',
  specifiedByURL: 'https://www.rfc-editor.org/rfc/rfc3339#section-5.6',
  serialize: (v) => v,
  parseValue: (v) => {
    if (parseLocalTime(v, true) === null) throw new TypeError('LocalTime must be HH:MM');
    return v;
  },
  parseLiteral: (ast) => {
    if (ast.kind !== Kind.STRING || parseLocalTime(ast.value, true) === null) throw new TypeError('LocalTime must be HH:MM');
    return ast.value;
  },
});

/**
 * TypeScript types of the custom scalars for generated clients: the `scalars` option of
 * graphql-codegen (docs/getting-started.md, "Typed clients"). A test runs codegen with exactly this map.
 */
export const CODEGEN_SCALARS: Record<string, string> = {
  DateTime: 'string',
  Duration: 'string',
  HexColorCode: 'string',
  Currency: 'string',
  LocalTime: 'string',
  JSONObject: 'Record<string, unknown>',
  JSON: 'string | number | boolean | null | unknown[] | Record<string, unknown>',
};
