import { PrewrittenJson } from '../kernel/prewritten-json';
import type { Ctx } from '../kernel/context';
import { sendingPrewritten, stringifyResult } from './graphql-direct';

const value = {
  timeZone: 'Europe/Riga',
  resources: [{ resourceID: 'r1', times: [{ startTime: '2026-03-02T07:00:00Z', note: 'é "quoted" \u0000' }] }],
};
const prewritten = () => new PrewrittenJson(Buffer.from(JSON.stringify(value)));

describe('prewritten values in GraphQL responses', () => {
  it('are written where graphql-js would have put their value', () => {
    const result = { errors: undefined, data: { __typename: 'Query', a: prewritten(), last: 'Query' }, extensions: undefined };
    const expected = `${JSON.stringify({ data: { __typename: 'Query', a: value, last: 'Query' } })}\n`;
    expect(stringifyResult(result)).toBe(expected);
    // anything else serialises the value itself
    expect(JSON.stringify(result)).toBe(expected.trimEnd());
  });

  it('leaves every other response to JSON.stringify', () => {
    for (const result of [{ data: { a: 1 } }, { errors: [{ message: 'x' }], data: null }, { errors: [{ message: 'y' }] }]) {
      expect(stringifyResult(result as never)).toBe(`${JSON.stringify(result)}\n`);
    }
  });

  it('are sent as their bytes by the route, spliced into the rest of the response', async () => {
    const ctx = {} as Ctx;
    const body = await sendingPrewritten(ctx, async () => {
      const a = prewritten();
      const b = prewritten();
      ctx.prewritten!.push(a, b);
      return '{"data":{"a":\u00000\u0000,"é":\u00001\u0000}}\n';
    });
    expect(Buffer.isBuffer(body)).toBe(true);
    expect(JSON.parse((body as Buffer).toString('utf8'))).toEqual({ data: { a: value, é: value } });
    expect(ctx.prewritten).toBeUndefined();
    expect(await sendingPrewritten(ctx, async () => 'plain')).toBe('plain');
  });

  it('are completed in the spare memory around them when they have some, else copied', async () => {
    const json = Buffer.from(JSON.stringify(value));
    const room = Buffer.alloc(json.length + 64, 0x2a);
    json.copy(room, 40);
    const around = (spare: boolean, before: number) =>
      new PrewrittenJson(Buffer.from(room.buffer, room.byteOffset + before, json.length), spare);
    const send = (v: PrewrittenJson, head: string) => {
      const ctx = {} as Ctx;
      return sendingPrewritten(ctx, async () => {
        ctx.prewritten!.push(v);
        return `${head}\u00000\u0000}}\n`;
      });
    };
    const inPlace = (await send(around(true, 40), '{"data":{"a":')) as Buffer;
    expect(JSON.parse(inPlace.toString())).toEqual({ data: { a: value } });
    expect(inPlace.buffer).toBe(room.buffer);
    // a head longer than the room, or memory that is not the value's own: a new buffer
    for (const [v, head] of [
      [around(true, 40), `{"data":{"${'x'.repeat(40)}":`],
      [around(false, 40), '{"data":{"a":'],
    ] as const) {
      const copied = (await send(v, head)) as Buffer;
      expect(copied.buffer).not.toBe(room.buffer);
      expect(JSON.parse(copied.toString()).data).toEqual({ [head.slice(10, -2)]: value });
    }
  });
});
