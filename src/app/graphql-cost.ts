import {
  getIntrospectionQuery,
  getNamedType,
  getNullableType,
  GraphQLError,
  isInterfaceType,
  isListType,
  isCompositeType,
  parse,
  type DocumentNode,
  type GraphQLSchema,
} from 'graphql';
import { getComplexity, type ComplexityEstimator, type ComplexityEstimatorArgs } from 'graphql-query-complexity';

/** Upper bound of a document's cost; the standard introspection query costs INTROSPECTION_COST. */
export const MAX_COMPLEXITY = 5000;
/** What one standard introspection query costs, whatever the size of the schema. */
export const INTROSPECTION_COST = 1000;
/** Fields, fragments and inline fragments evaluated at most (fragments count every time they are spread). */
export const MAX_QUERY_NODES = 5000;
/** A list without a limit argument is assumed to hold this many items. */
const LIST_FACTOR = 10;
/** Fields whose cost is their window in days times the resources asked for. */
const AVAILABILITY_FIELDS = new Set(['availableTimes', 'clientAvailableTimes', 'availableDates', 'clientAvailableDates']);
const DAY_MS = 86_400_000;

/**
 * Items a list field of the introspection types holds at most in this schema, so that the cost
 * of an introspection document follows the size of its answer (nested `fields { type { fields`
 * multiply as they would in the answer).
 */
function introspectionSizes(schema: GraphQLSchema): Record<string, number> {
  const types = Object.values(schema.getTypeMap());
  let fields = 1;
  let args = 1;
  let inputFields = 1;
  let enumValues = 1;
  let interfaces = 1;
  let possible = 1;
  for (const t of types) {
    if ('getFields' in t) {
      const f = Object.values(t.getFields());
      if ('getInterfaces' in t) {
        fields = Math.max(fields, f.length);
        interfaces = Math.max(interfaces, t.getInterfaces().length);
        for (const field of f) args = Math.max(args, 'args' in field ? field.args.length : 0);
      } else inputFields = Math.max(inputFields, f.length);
    }
    if ('getValues' in t) enumValues = Math.max(enumValues, t.getValues().length);
    if ('getTypes' in t) possible = Math.max(possible, t.getTypes().length);
    if (isInterfaceType(t)) possible = Math.max(possible, schema.getPossibleTypes(t).length);
  }
  const directives = schema.getDirectives();
  return {
    '__Schema.types': types.length,
    '__Schema.directives': directives.length,
    '__Type.fields': fields,
    '__Type.inputFields': inputFields,
    '__Type.enumValues': enumValues,
    '__Type.interfaces': interfaces,
    '__Type.possibleTypes': possible,
    '__Field.args': args,
    '__Directive.args': Math.max(1, ...directives.map((d) => d.args.length)),
    '__Directive.locations': 1,
  };
}

/** Window in days × resources asked for (all linked resources are assumed to be 10). */
function availabilityCost(args: Record<string, unknown>): number {
  const input = (args.input ?? {}) as { from?: unknown; to?: unknown; resourceIDs?: unknown };
  const from = input.from instanceof Date ? input.from.getTime() : Date.parse(String(input.from));
  const to = input.to instanceof Date ? input.to.getTime() : Date.parse(String(input.to));
  const days = Number.isFinite(from) && Number.isFinite(to) && to > from ? Math.ceil((to - from) / DAY_MS) : 1;
  const resources = Array.isArray(input.resourceIDs) && input.resourceIDs.length > 0 ? input.resourceIDs.length : LIST_FACTOR;
  return days * resources;
}

/**
 * The estimators of this schema: introspection by the size of its answer (scaled at its root
 * field by `introspectionScale`), data by lists and availability windows.
 */
export function costEstimators(schema: GraphQLSchema, introspectionScale = () => 1): ComplexityEstimator[] {
  const sizes = introspectionSizes(schema);
  const introspection: ComplexityEstimator = ({ type, field, childComplexity }: ComplexityEstimatorArgs) => {
    if (field.name === '__typename') return 0;
    if (field.name === '__schema' || field.name === '__type') return introspectionScale() * (1 + childComplexity);
    if (!type.name.startsWith('__')) return undefined;
    const size = isListType(getNullableType(field.type)) ? (sizes[`${type.name}.${field.name}`] ?? LIST_FACTOR) : 1;
    return 1 + size * childComplexity;
  };
  const data: ComplexityEstimator = ({ field, args, childComplexity }: ComplexityEstimatorArgs) => {
    if (AVAILABILITY_FIELDS.has(field.name)) return 1 + availabilityCost(args) + childComplexity;
    // a list that is part of one record (its items bounded by that record) declares a fixed complexity
    if (typeof field.extensions?.complexity === 'number') return field.extensions.complexity + childComplexity;
    const list = isListType(getNullableType(field.type)) && isCompositeType(getNamedType(field.type));
    return 1 + (list ? LIST_FACTOR : 1) * childComplexity;
  };
  return [introspection, data];
}

/** The query GraphiQL, Apollo Sandbox and graphql-codegen send (with every optional part asked for). */
export const STANDARD_INTROSPECTION = parse(
  getIntrospectionQuery({ descriptions: true, specifiedByUrl: true, directiveIsRepeatable: true, inputValueDeprecation: true }),
);

export type CostOf = (document: DocumentNode, variables?: Record<string, unknown>, operationName?: string) => number;

/**
 * Cost of GraphQL documents, computed with graphql-query-complexity: fragment spreads are
 * expanded wherever they are used, aliases count separately, and the evaluation itself stops
 * (with an error) after MAX_QUERY_NODES nodes. Introspection is scaled so that the standard
 * introspection query costs INTROSPECTION_COST.
 */
export function createCostModel(schema: GraphQLSchema): CostOf {
  let scale = 1;
  const estimators = costEstimators(schema, () => scale);
  const cost: CostOf = (query, variables, operationName) =>
    Math.ceil(getComplexity({ schema, query, variables: variables ?? {}, operationName, estimators, maxQueryNodes: MAX_QUERY_NODES }));
  scale = INTROSPECTION_COST / cost(STANDARD_INTROSPECTION);
  return cost;
}

/**
 * `extensions.cost` of every GraphQL answer (Shopify's `extensions.cost`, reduced to what this
 * server knows): the operation's cost as computed before it ran (`requested`; null when the
 * document was never evaluated: it did not parse or validate, or the request was refused before)
 * and the most an operation may cost (`limit`).
 */
export function costExtension(requested: number | null): { cost: { requested: number | null; limit: number } } {
  return { cost: { requested, limit: MAX_COMPLEXITY } };
}

/** The refusal of a document above the limits (before anything executes). */
export function tooComplex(cost: number): GraphQLError {
  return new GraphQLError(`query complexity ${cost} exceeds the limit of ${MAX_COMPLEXITY}`, {
    extensions: { code: 'invalid_request', http: { status: 400 } },
  });
}
