import {
  GraphQLID,
  GraphQLInt,
  GraphQLString,
  isInterfaceType,
  isObjectType,
  getNamedType,
  type FieldNode,
  type GraphQLObjectType,
  type GraphQLSchema,
} from 'graphql';
import { collectSubfields } from 'graphql/execution/collectFields';
import type { Ctx } from '../../kernel/context';
import type { DirectField, DirectFieldRequest } from '../../kernel/graphql-direct';
import { PrewrittenJson } from '../../kernel/prewritten-json';
import { DateTimeScalar, DurationScalar } from '../../kernel/graphql-scalars';
import { adminTimesSelected, clientTimesSelected, type TimesInput } from './availability.service';
import { timesInputOf, type AvailableTimesInput } from './availability.types';
import { selectionJsonOf, type SelectedField, type TimesSelection } from './times-selection';

/**
 * `availableTimes` and `clientAvailableTimes` answered directly (kernel/graphql-direct.ts): the
 * operation's selection of `AvailableTimes` is resolved here with graphql-js's `collectSubfields`
 * (aliases, fragments, `@include`/`@skip`, merged repeats), then the service computes the answer
 * and writes its JSON for that selection (times-selection.ts), on a worker thread when it is
 * large, as the REST answer is. What graphql-js would answer is the reference: the resolver
 * (availability.resolver.ts) still serves every operation this does not take.
 */

/** The fields the writer knows, with their types as the schema prints them. */
const KNOWN: Record<string, Record<string, string>> = {
  AvailableTimes: { timeZone: 'String!', resources: '[ResourceAvailableTimes!]!' },
  ResourceAvailableTimes: { resourceID: 'ID!', times: '[AvailableTime!]!' },
  OpenAvailableTime: { startTime: 'DateTime!', duration: 'Duration!', price: 'Price!' },
  SlotAvailableTime: {
    startTime: 'DateTime!',
    duration: 'Duration!',
    price: 'Price!',
    spotsAvailable: 'Int!',
    totalSpots: 'Int!',
    bookedSpots: 'Int!',
    bookedSpotsPerTicket: '[TicketCount!]!',
    totalSpotsPerTicket: '[TicketCount!]!',
    ticketPrices: '[TicketPrice!]!',
  },
  Price: { amount: 'Int!', comparedAmount: 'Int!', currency: 'String!' },
  TicketPrice: { ticketID: 'ID!', amount: 'Int!', comparedAmount: 'Int!', currency: 'String!' },
  TicketCount: { ticketID: 'ID!', count: 'Int!' },
};
const ROOT_TYPE = 'AvailableTimes';
const TIME_TYPES = { open: 'OpenAvailableTime', slot: 'SlotAvailableTime' } as const;

const ROOT_FIELDS = ['availableTimes', 'clientAvailableTimes'];

function possibleTimeTypes(schema: GraphQLSchema): string {
  const time = schema.getType('AvailableTime');
  return isInterfaceType(time)
    ? schema
        .getPossibleTypes(time)
        .map((t) => t.name)
        .sort()
        .join(',')
    : '';
}

const fits = new WeakMap<GraphQLSchema, boolean>();

/**
 * Whether the schema's types are the ones the writer was written for: every known type with
 * exactly these fields, types and no arguments, and the scalars the writer reproduces. A schema
 * that has moved on leaves every operation to graphql-js until the writer follows.
 */
export function schemaFits(schema: GraphQLSchema): boolean {
  let ok = fits.get(schema);
  if (ok === undefined) {
    ok =
      schema.getType('DateTime') === DateTimeScalar &&
      schema.getType('Duration') === DurationScalar &&
      schema.getType('Int') === GraphQLInt &&
      schema.getType('String') === GraphQLString &&
      schema.getType('ID') === GraphQLID &&
      possibleTimeTypes(schema) === `${TIME_TYPES.open},${TIME_TYPES.slot}` &&
      ROOT_FIELDS.every((f) => String(schema.getQueryType()?.getFields()[f]?.type) === ROOT_TYPE) &&
      Object.entries(KNOWN).every(([name, fields]) => {
        const type = schema.getType(name);
        if (!isObjectType(type)) return false;
        const defs = type.getFields();
        return (
          Object.keys(defs).length === Object.keys(fields).length &&
          Object.entries(fields).every(([f, printed]) => defs[f] && String(defs[f].type) === printed && defs[f].args.length === 0)
        );
      });
    fits.set(schema, ok);
  }
  return ok;
}

/** The selection below `fieldNodes` of `type`, as graphql-js collects it for an object of that type; null: not one the writer knows. */
function selectionOf(req: DirectFieldRequest, type: GraphQLObjectType, fieldNodes: readonly FieldNode[]): SelectedField[] | null {
  const { schema, fragments, variableValues } = req;
  const known = KNOWN[type.name];
  const out: SelectedField[] = [];
  for (const [key, nodes] of collectSubfields(schema, fragments, variableValues, type, fieldNodes)) {
    const field = nodes[0].name.value;
    if (field === '__typename') {
      out.push({ key, field, typename: type.name });
      continue;
    }
    if (!known?.[field]) return null;
    const target = getNamedType(type.getFields()[field].type);
    if (isObjectType(target)) {
      const sub = selectionOf(req, target, nodes);
      if (!sub) return null;
      out.push({ key, field, sub });
    } else if (isInterfaceType(target)) {
      const open = selectionOf(req, schema.getType(TIME_TYPES.open) as GraphQLObjectType, nodes);
      const slot = selectionOf(req, schema.getType(TIME_TYPES.slot) as GraphQLObjectType, nodes);
      if (!open || !slot) return null;
      out.push({ key, field, open, slot });
    } else out.push({ key, field });
  }
  return out;
}

/** The operation's selection of the `AvailableTimes` value, or null when the writer cannot answer it. */
export function timesSelectionOf(req: DirectFieldRequest): TimesSelection | null {
  if (!schemaFits(req.schema)) return null;
  return selectionOf(req, req.schema.getType(ROOT_TYPE) as GraphQLObjectType, req.fieldNodes);
}

type Selected = (ctx: Ctx, companyId: string, serviceId: unknown, input: TimesInput, selection: TimesSelection) => Promise<Buffer>;

/** A root field with the arguments of `availableTimes`, answered by `selected`. */
function direct(selected: Selected): DirectField {
  return async (ctx, req) => {
    const selection = timesSelectionOf(req);
    if (!selection) return null;
    const { companyID, serviceID, input } = req.args as { companyID: string; serviceID: string; input: AvailableTimesInput };
    const written = await selected(ctx, companyID, serviceID, timesInputOf(input), selection);
    return new PrewrittenJson(selectionJsonOf(written), true);
  };
}

export const availabilityDirect: Record<(typeof ROOT_FIELDS)[number], DirectField> = {
  availableTimes: direct(adminTimesSelected),
  clientAvailableTimes: direct(clientTimesSelected),
};
