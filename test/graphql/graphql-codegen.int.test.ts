import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { codegen } from '@graphql-codegen/core';
import * as typescriptPlugin from '@graphql-codegen/typescript';
import { buildClientSchema, getIntrospectionQuery, parse, printSchema, type IntrospectionQuery } from 'graphql';
import { CODEGEN_SCALARS } from '../../src/kernel/graphql-scalars';
import { BOOKING_STATUSES } from '../../src/modules/booking/booking.status';
import { PAYMENT_STATUSES } from '../../src/modules/payment/payment.status';
import { SERVICE_TYPES } from '../../src/shared/service-type';
import { createTestApp, type TestApp } from '../helpers/app';

/**
 * What a front-end developer gets from graphql-codegen's TypeScript plugin run on the schema
 * the server serves, with the scalar map docs/getting-started.md documents: typed enums and no `unknown`.
 */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(async () => t?.close());

/** The `scalars` map of the codegen example in docs/getting-started.md ("Typed clients"). */
function guideScalars(): Record<string, string> {
  const guide = readFileSync(join(__dirname, '..', '..', 'docs', 'getting-started.md'), 'utf8');
  const block = /scalars: \{([^}]*)\}/.exec(guide);
  if (!block) throw new Error('docs/getting-started.md has no codegen scalars map');
  return Object.fromEntries([...block[1].matchAll(/(\w+): '([^']+)'/g)].map((m) => [m[1], m[2]]));
}

describe('graphql-codegen on the served schema', () => {
  let output = '';
  beforeAll(async () => {
    const r = await t.call('POST', '/graphql', { body: { query: getIntrospectionQuery({ specifiedByUrl: true }) } });
    const schema = buildClientSchema((r.body as { data: IntrospectionQuery }).data);
    output = await codegen({
      schema: parse(printSchema(schema)),
      documents: [],
      filename: 'generated.ts',
      plugins: [{ typescript: {} }],
      pluginMap: { typescript: typescriptPlugin },
      config: { scalars: guideScalars(), enumsAsTypes: true, strictScalars: true },
    });
  });

  it('the getting started guide documents the scalar map the server exports', () => {
    expect(guideScalars()).toEqual(CODEGEN_SCALARS);
  });

  it('maps every custom scalar to a type, none to unknown', () => {
    for (const name of Object.keys(CODEGEN_SCALARS)) {
      const line = new RegExp(`^\\s*${name}: \\{ input: ([^;]+); output: ([^;]+); \\}`, 'm').exec(output);
      expect({ name, input: line?.[1], output: line?.[2] }).toEqual({ name, input: CODEGEN_SCALARS[name], output: CODEGEN_SCALARS[name] });
    }
    expect(output).not.toMatch(/\{ input: unknown; output: unknown; \}/);
    expect(output).toMatch(/createdAt: Scalars\['DateTime'\]\['output'\]/);
  });

  it('generates typed enums spelt as on the REST wire', () => {
    const union = (name: string) =>
      [...(new RegExp(`export type ${name} =([\\s\\S]*?)\\n\\n`).exec(output)?.[1] ?? '').matchAll(/\| '(\w+)'/g)].map((m) => m[1]).sort();
    expect(union('BookingStatus')).toEqual([...BOOKING_STATUSES].sort());
    expect(union('PaymentStatus')).toEqual([...PAYMENT_STATUSES].sort());
    expect(union('ServiceType')).toEqual([...SERVICE_TYPES].sort());
    expect(output).toMatch(/status: BookingStatus;/);
    expect(output).toMatch(/type: ServiceType;/);
  });

  it('types inputs instead of JSON, metaDataUpdate included', () => {
    expect(output).toMatch(
      /export type MetaDataUpdateInput = \{[^}]*expectedVersion: Scalars\['Int'\]\['input'\];[^}]*path: Scalars\['String'\]\['input'\];/,
    );
    expect(output).toMatch(/export type BookingBase = \{/);
  });
});
