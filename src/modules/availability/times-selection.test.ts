import 'reflect-metadata';
import { execute, GraphQLObjectType, GraphQLSchema, parse, type GraphQLNamedType, type OperationDefinitionNode } from 'graphql';
import { collectFields } from 'graphql/execution/collectFields';
import { buildSchemaSync } from 'type-graphql';
import { DateTimeScalar, DurationScalar } from '../../kernel/graphql-scalars';
import type { DirectFieldRequest } from '../../kernel/graphql-direct';
import { formatDuration } from '../../shared/duration';
import { timesEntries } from './availability.compute';
import { schemaFits, timesSelectionOf } from './availability.direct';
import { AvailabilityResolver, withTimeList } from './availability.resolver';
import { computeAvailability, computeAvailabilityColumns } from './engine';
import { resource, snapshot } from './engine/testkit';
import type { AvailabilityRequest, AvailabilitySnapshot } from './engine/types';
import { loadedOf, randomCase } from './random-cases';
import { NotWritable, selectionJsonOf, selectionShape, timesSelectionJson } from './times-selection';

/**
 * The JSON written for a selection is what graphql-js answers: the real schema's types
 * (resolveType, the per-ticket field resolvers, the scalars) executed over the resolver's value,
 * for random snapshots of every service type.
 */

/** The schema of this module's resolver, built as the server builds the whole schema (app/graphql.ts). */
const real = buildSchemaSync({ resolvers: [AvailabilityResolver], validate: false, scalarsMap: [{ type: Date, scalar: DateTimeScalar }] });
const type = (name: string) => real.getType(name) as GraphQLNamedType & GraphQLObjectType;

/** A schema whose root fields hand over `value`, with the real `AvailableTimes` below them. */
function schemaOf(value: () => unknown): GraphQLSchema {
  const field = { type: type('AvailableTimes'), resolve: value };
  return new GraphQLSchema({
    query: new GraphQLObjectType({ name: 'Query', fields: { availableTimes: field, clientAvailableTimes: field } }),
    types: [type('OpenAvailableTime'), type('SlotAvailableTime')],
  });
}

const SELECTIONS = {
  plain: `{ availableTimes { timeZone resources { resourceID times { startTime duration price { amount comparedAmount currency } } } } }`,
  everything: `query($yes: Boolean = true, $no: Boolean = false) {
    availableTimes {
      __typename
      resources {
        ... on ResourceAvailableTimes { id: resourceID }
        times {
          ...Slot
          at: startTime
          __typename
          price @include(if: $yes) { __typename currency amount }
          price { comparedAmount }
          ... on OpenAvailableTime { duration @skip(if: $no) startTime }
          gone: duration @include(if: $no)
        }
        __typename
        resourceID
      }
      zone: timeZone
    }
  }
  fragment Slot on SlotAvailableTime {
    spotsAvailable
    bookedSpotsPerTicket { count ticketID __typename }
    ticketPrices { __typename ...Ticket }
    totalSpotsPerTicket { ticketID }
    bookedSpots
    totalSpots
    duration
  }
  fragment Ticket on TicketPrice { ticketID amount comparedAmount currency }`,
  timesOnly: `{ availableTimes { resources { times { __typename } } } }`,
  // the start time once, with other fields around it: written by copying runs of entries
  reordered: `{ availableTimes { resources { resourceID times { __typename price { currency amount __typename } duration when: startTime } } } }`,
} as const;

function requestOf(schema: GraphQLSchema, query: string, variableValues: Record<string, unknown> = {}): DirectFieldRequest {
  const document = parse(query);
  const op = document.definitions.find((d): d is OperationDefinitionNode => d.kind === 'OperationDefinition')!;
  for (const v of op.variableDefinitions ?? []) {
    const name = v.variable.name.value;
    if (!(name in variableValues) && v.defaultValue?.kind === 'BooleanValue') variableValues[name] = v.defaultValue.value;
  }
  const fragments = Object.fromEntries(
    document.definitions.filter((d) => d.kind === 'FragmentDefinition').map((d) => [(d as { name: { value: string } }).name.value, d]),
  ) as DirectFieldRequest['fragments'];
  const root = collectFields(schema, fragments, variableValues, schema.getQueryType()!, op.selectionSet);
  return { schema, fragments, variableValues, fieldNodes: root.get('availableTimes')!, args: {} };
}

async function executed(schema: GraphQLSchema, query: string): Promise<{ data?: unknown; errors?: unknown }> {
  return JSON.parse(JSON.stringify(await execute({ schema, document: parse(query) })));
}

function answerOf(snap: AvailabilitySnapshot, req: AvailabilityRequest) {
  const loaded = loadedOf(snap);
  const value = () => withTimeList(timesEntries(loaded, computeAvailability(snap, req), snap.zone));
  return { loaded, columns: computeAvailabilityColumns(snap, req), schema: schemaOf(value) };
}

describe('the JSON of a selection of available times', () => {
  it('fits the real schema', () => {
    expect(schemaFits(real)).toBe(true);
  });

  it.each(Array.from({ length: 120 }, (_, i) => i + 1))(
    'random case #%i: the text graphql-js answers, for each selection',
    async (seed) => {
      const { snap, req } = randomCase(seed);
      const { loaded, columns, schema } = answerOf(snap, req);
      for (const query of Object.values(SELECTIONS)) {
        const selection = timesSelectionOf(requestOf(schema, query));
        expect(selection).not.toBeNull();
        const written = selectionJsonOf(timesSelectionJson(loaded, columns, snap.zone, selection!)).toString();
        const result = await executed(schema, query);
        expect(result.errors).toBeUndefined();
        expect(written).toBe(JSON.stringify((result.data as { availableTimes: unknown }).availableTimes));
      }
    },
  );

  it('stops where graphql-js would not serialise a value (an Int out of range)', async () => {
    const snap = snapshot({
      resources: [resource('r1')],
      pricer: { quote: () => ({ amount: 2 ** 31, comparedAmount: 0, currency: 'EUR' }), step: () => null },
    });
    const req: AvailabilityRequest = {
      from: Date.parse('2026-01-05T00:00:00Z'),
      to: Date.parse('2026-01-06T00:00:00Z'),
      includePast: false,
      durationSec: null,
      spots: null,
      tickets: null,
    };
    const { loaded, columns, schema } = answerOf(snap, req);
    const selection = timesSelectionOf(requestOf(schema, SELECTIONS.plain))!;
    expect(() => timesSelectionJson(loaded, columns, snap.zone, selection)).toThrow(NotWritable);
    expect((await executed(schema, SELECTIONS.plain)).errors).toBeDefined();
    // a selection without the price is written
    const timesOnly = timesSelectionOf(requestOf(schema, SELECTIONS.timesOnly))!;
    const text = selectionJsonOf(timesSelectionJson(loaded, columns, snap.zone, timesOnly)).toString();
    expect(JSON.parse(text).resources[0].times.length).toBeGreaterThan(0);
  });

  it('copies runs of entries for selections that ask for the start time once, and only then', () => {
    const schema = schemaOf(() => null);
    const entry = (query: string) =>
      timesSelectionOf(requestOf(schema, query))!
        .find((f) => f.field === 'resources')!
        .sub!.find((f) => f.field === 'times')!.open!;
    expect(selectionShape(entry(SELECTIONS.plain))).not.toBeNull();
    expect(selectionShape(entry(SELECTIONS.reordered))).not.toBeNull();
    expect(selectionShape(entry(SELECTIONS.timesOnly))).toBeNull();
    expect(selectionShape(entry(`{ availableTimes { resources { times { a: startTime b: startTime } } } }`))).toBeNull();
  });

  it('declines fields it does not know (introspection below the root)', () => {
    const schema = schemaOf(() => null);
    expect(timesSelectionOf(requestOf(schema, '{ availableTimes { timeZone __schema { description } } }'))).toBeNull();
  });

  it('writes durations the Duration scalar passes unchanged', () => {
    const changed: string[] = [];
    for (let sec = 0; sec <= 100 * 86_400; sec += sec < 7200 ? 1 : 599) {
      const text = formatDuration(sec);
      if (DurationScalar.serialize(text) !== text) changed.push(text);
    }
    expect(changed).toEqual([]);
  });
});
