import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DateTime } from 'luxon';
import type { FastifyInstance } from 'fastify';
import { systemCtx, type AppDeps } from '../kernel/context';
import { Company, Merchant } from '../modules/company/company.entity';
import { authenticateKey, createMerchant } from '../modules/company/apikey.service';
import { buildServer } from './server';

/**
 * `npm run cli -- demo:seed`: a demo merchant with a hair salon and a tennis club, made through
 * the REST API of this server (in process, `inject`), so the data passes every check a client's
 * data passes. Its API key is kept in `DATA_DIR/demo-api-key` (mode 0600) so that a second run
 * prints it again; a second run changes nothing. A database that holds companies of other
 * merchants is left alone unless `force` is given.
 */

export const DEMO_MERCHANT = 'Demo merchant (demo:seed)';
const ZONE = 'Europe/Riga';
/** How far ahead the demo bookings reach. */
const WEEKS_AHEAD = 3;

export interface SeedOutcome {
  /** exit status of the command: 0 done or already there, 1 refused */
  code: number;
  message: string;
}

type Json = Record<string, unknown>;
type Call = <T = Json>(method: 'GET' | 'POST' | 'PUT' | 'PATCH', path: string, body?: unknown) => Promise<T>;

function caller(app: FastifyInstance, key: string): Call {
  return async <T>(method: string, path: string, body?: unknown) => {
    const res = await app.inject({
      method: method as 'GET',
      url: path,
      headers: { 'x-api-key': key, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      payload: body === undefined ? undefined : JSON.stringify(body),
    });
    if (res.statusCode >= 300) throw new Error(`demo data: ${method} ${path} answered ${res.statusCode} ${res.body.slice(0, 500)}`);
    return (res.body ? JSON.parse(res.body) : undefined) as T;
  };
}

/** What to open once the demo data exists. */
function instructions(key: string, config: AppDeps['config'], bookings: number | null): string {
  const base = `http://localhost:${config.port}`;
  return [
    bookings === null
      ? 'the demo data exists already; nothing changed'
      : `demo data created: Linden Hair Salon and Riverside Tennis Club, with ${bookings} bookings over the coming ${WEEKS_AHEAD} weeks`,
    `API key of the demo merchant (send it as X-API-Key): ${key}`,
    '',
    'with the server running (npm start), open:',
    `  ${base}/graphql     GraphQL explorer: put {"X-API-Key": "${key}"} in its Headers tab`,
    `  ${base}/docs        guides and the REST API reference`,
    `  curl -s ${base}/v1/companies -H "X-API-Key: ${key}"`,
  ].join('\n');
}

export async function seedDemo(deps: AppDeps, opts: { force?: boolean } = {}): Promise<SeedOutcome> {
  const ctx = systemCtx(deps, 'demo-seed');
  const { em } = ctx;
  const keyFile = join(deps.config.dataDir, 'demo-api-key');
  const merchant = await em.findOne(Merchant, { name: DEMO_MERCHANT }, { orderBy: { createdAt: 'asc' } });
  const others = await em.count(Company, merchant ? { merchantId: { $ne: merchant.id } } : {});
  if (others > 0 && !opts.force) {
    return {
      code: 1,
      message:
        `this database holds ${others} compan${others === 1 ? 'y' : 'ies'} of other merchants: demo:seed adds its demo ` +
        'merchant to a new installation only. Run `npm run cli -- demo:seed --force` to add it anyway.',
    };
  }
  const existing = merchant ? await em.find(Company, { merchantId: merchant.id }) : [];
  if (merchant && existing.length >= COMPANIES.length) {
    const kept = existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '';
    const actor = kept ? await authenticateKey(ctx, kept) : null;
    if (actor?.merchantId === merchant.id) return { code: 0, message: instructions(kept, deps.config, null) };
    return {
      code: 0,
      message:
        `the demo data exists already (merchant ${merchant.id}); nothing changed. Its API key was printed when it was ` +
        `created and is no longer in ${keyFile}: \`npm run cli -- keys:list\` shows its keys.`,
    };
  }

  let key: string;
  if (merchant) {
    // an earlier run stopped before it finished: go on with its merchant and key
    key = existsSync(keyFile) ? readFileSync(keyFile, 'utf8').trim() : '';
    if ((await authenticateKey(ctx, key))?.merchantId !== merchant.id) {
      return {
        code: 1,
        message:
          `an earlier demo:seed stopped before it finished, and its API key is no longer in ${keyFile}: ` +
          'run demo:seed on a new database (DATA_DIR or DATABASE_URL) instead.',
      };
    }
  } else {
    const made = await createMerchant(ctx, DEMO_MERCHANT);
    key = made.secret;
    mkdirSync(deps.config.dataDir, { recursive: true });
    writeFileSync(`${keyFile}.tmp`, key, { mode: 0o600 });
    renameSync(`${keyFile}.tmp`, keyFile);
  }

  // A server of its own, without rate limits (the demo makes a few hundred requests at once);
  // the demo webhook goes to a local receiver, which needs WEBHOOK_ALLOW_INSECURE (it is left disabled).
  const app = await buildServer(
    { ...deps, config: { ...deps.config, rateLimitPerSecond: 0, webhookAllowInsecure: true } },
    { logger: false },
  );
  let bookings = 0;
  try {
    await app.ready();
    const send = caller(app, key);
    const call: Call = async (method, path, body) => {
      const answer = await send(method, path, body);
      if (method === 'POST' && path.endsWith('/bookings')) bookings++;
      return answer as never;
    };
    const names = new Set(existing.map((c) => c.name));
    const now = DateTime.fromMillis(deps.clock.now(), { zone: ZONE });
    for (const company of COMPANIES) if (!names.has(company.name)) await company.seed(call, now);
  } finally {
    await app.close();
  }
  return { code: 0, message: instructions(key, deps.config, bookings) };
}

/** RFC 3339 instant of a local wall-clock time `days` after today in the demo's zone. */
const localAt = (now: DateTime, days: number, hhmm: string): string => {
  const [hour, minute] = hhmm.split(':').map(Number);
  return now.plus({ days }).set({ hour, minute, second: 0, millisecond: 0 }).toUTC().toISO({ suppressMilliseconds: true })!;
};

/** The next date (days from today, at least 1) that falls on ISO weekday `weekday` (1 Monday ... 7 Sunday). */
const nextWeekday = (now: DateTime, weekday: number): number => (weekday - now.weekday + 7) % 7 || 7;

type Times = { times: Record<string, { startTime: string }[]> };

/** Start times of `sid` on the local day `days` ahead, per resource. */
async function startsOn(call: Call, cid: string, sid: string, now: DateTime, days: number, extra: Json = {}): Promise<Times['times']> {
  const from = localAt(now, days, '00:00');
  const to = localAt(now, days + 1, '00:00');
  return (await call<Times>('POST', `/v1/companies/${cid}/services/${sid}/times`, { from, to, ...extra })).times;
}

async function clients(call: Call, cid: string, people: [string, string][]): Promise<string[]> {
  const ids: string[] = [];
  for (const [firstName, lastName] of people) {
    const handle = `${firstName}.${lastName}`.toLowerCase().replace(/[^a-z.]/g, '');
    const c = await call<{ id: string }>('POST', `/v1/companies/${cid}/clients`, {
      externalUserID: `demo-${handle}`,
      email: `${handle}@example.com`,
      firstName,
      lastName,
    });
    ids.push(c.id);
  }
  return ids;
}

/**
 * Books `perDay` of the free start times of `sid` on each open day of the coming weeks, spread
 * over the day, for the demo clients in turn (`notify: false`: the demo sends no e-mail).
 */
async function bookAhead(
  call: Call,
  cid: string,
  sid: string,
  now: DateTime,
  clientIds: string[],
  perDay: number,
  extra: Json = {},
): Promise<void> {
  let n = 0;
  for (let days = 1; days <= WEEKS_AHEAD * 7; days++) {
    const times = await startsOn(call, cid, sid, now, days, extra);
    for (const [resourceID, list] of Object.entries(times)) {
      // spread over the day: the middle of each of `perDay` equal parts of the list
      const picks = new Set(
        Array.from({ length: Math.min(perDay, list.length) }, (_, i) => Math.floor(((i + 0.5) * list.length) / perDay)),
      );
      for (const pick of picks) {
        const startTime = list[pick].startTime;
        await call('POST', `/v1/companies/${cid}/bookings`, {
          serviceID: sid,
          resourceID,
          startTime,
          clientID: clientIds[n++ % clientIds.length],
          notify: false,
          ...extra,
        }).catch((err: Error) => {
          // a time taken by the booking just made on a related resource: skip it
          if (!/ 409 /.test(err.message)) throw err;
        });
      }
    }
  }
}

/** A new company in the demo's zone, with helpers for the paths below it. */
async function newCompany(call: Call, name: string) {
  const cid = (await call<{ id: string }>('POST', '/v1/companies', { name, timeZone: ZONE })).id;
  const at = (path: string) => `/v1/companies/${cid}${path}`;
  const id = async (path: string, body: unknown) => (await call<{ id: string }>('POST', at(path), body)).id;
  return { cid, at, id };
}

interface DemoCompany {
  name: string;
  seed(call: Call, now: DateTime): Promise<void>;
}

const salon: DemoCompany = {
  name: 'Linden Hair Salon',
  async seed(call, now) {
    const { cid, at, id } = await newCompany(call, this.name);

    const anna = await id('/resources', { name: 'Anna (stylist)', color: '#AA3366' });
    const marta = await id('/resources', { name: 'Marta (stylist)', color: '#6A1B9A' });
    const studio = await id('/resources', { name: 'Workshop room', color: '#2E7D32' });
    // Mon-Fri 9-12 and 13-18; Tue-Sat 10-19; the room Mon-Sat 9-20 (daysOfWeek: Mon 64 ... Sun 1)
    await call('POST', at(`/resources/${anna}/working-hours`), {
      workingHours: [
        {
          daysOfWeek: 124,
          hours: [
            { start: '09:00', end: '12:00' },
            { start: '13:00', end: '18:00' },
          ],
        },
      ],
    });
    await call('POST', at(`/resources/${marta}/working-hours`), {
      workingHours: [{ daysOfWeek: 62, hours: [{ start: '10:00', end: '19:00' }] }],
    });
    await call('POST', at(`/resources/${studio}/working-hours`), {
      workingHours: [{ daysOfWeek: 126, hours: [{ start: '09:00', end: '20:00' }] }],
    });

    const haircut = await id('/services', {
      name: 'Haircut',
      type: 'fixed',
      settings: { duration: 'PT45M', timeInterval: 'PT15M', bufferAfter: 'PT15M', availabilityPeriod: 'P60D', currency: 'EUR' },
    });
    const colouring = await id('/services', {
      name: 'Colouring',
      type: 'fixed',
      settings: { duration: 'PT2H', timeInterval: 'PT30M', bookingPolicy: 'manual', availabilityPeriod: 'P60D', currency: 'EUR' },
    });
    const workshop = await id('/services', {
      name: 'Hair-care workshop',
      type: 'group',
      settings: { duration: 'PT1H30M', availabilityPeriod: 'P60D', currency: 'EUR' },
    });
    for (const sid of [haircut, colouring]) {
      await call('POST', at(`/services/${sid}/links`), { resourceID: anna });
      await call('POST', at(`/services/${sid}/links`), { resourceID: marta });
    }
    await call('POST', at(`/services/${workshop}/links`), { resourceID: studio });
    await call('POST', at(`/services/${haircut}/prices`), { type: 'fixed', priority: 1, price: { price: 3000 } });
    // Saturdays cost more
    await call('POST', at(`/services/${haircut}/prices`), {
      type: 'fixed',
      priority: 2,
      price: { price: 3500 },
      limitation: { daysOfWeek: 2 },
    });
    await call('POST', at(`/services/${colouring}/prices`), { type: 'fixed', priority: 1, price: { price: 8000, comparedPrice: 9500 } });
    await call('POST', at(`/services/${workshop}/capacities`), { type: 'group', spots: 8 });
    await call('POST', at(`/services/${workshop}/prices`), { type: 'group', priority: 1, price: { price: 1500 } });
    await call('POST', at(`/services/${workshop}/discounts`), { type: 'spots', priority: 1, rules: [{ from: 3, to: 8, price: 1200 }] });
    // every Thursday at 18:00
    await call('POST', at(`/services/${workshop}/slots`), {
      resourceID: studio,
      startTime: localAt(now, nextWeekday(now, 4), '18:00'),
      duration: 'PT1H30M',
      repeat: { rrule: 'FREQ=WEEKLY;BYDAY=TH', timeZone: ZONE },
    });
    // Anna's training day in two weeks
    const training = nextWeekday(now, 3) + 7;
    await call('POST', at(`/resources/${anna}/closing-periods`), {
      startTime: localAt(now, training, '09:00'),
      endTime: localAt(now, training, '18:00'),
    });

    await call('POST', at('/plugins/promocodes/codes'), {
      code: 'WELCOME10',
      title: '10 % off the first visit',
      discountType: 'percent',
      discountPercent: 10,
      usageType: 'one_per_customer',
      serviceIds: [],
    });
    await call('POST', at('/plugins/giftcards/giftcards'), {
      title: 'Gift card 50 EUR',
      amount: 5000,
      currency: 'EUR',
      validityDuration: 'P365D',
      taxRate: 21,
      taxInclusive: true,
    });

    const people = await clients(call, cid, [
      ['Ilze', 'Berzina'],
      ['Juris', 'Kalnins'],
      ['Laura', 'Ozola'],
      ['Peteris', 'Liepa'],
      ['Santa', 'Vitola'],
    ]);
    await bookAhead(call, cid, haircut, now, people, 2);
    // colouring waits for the salon to confirm (manual policy); a few are left pending
    await bookAhead(call, cid, colouring, now, people.slice(2), 1);
    await bookAhead(call, cid, workshop, now, people, 1, { spots: 2 });
  },
};

const tennis: DemoCompany = {
  name: 'Riverside Tennis Club',
  async seed(call, now) {
    const { cid, at, id } = await newCompany(call, this.name);
    const hours = (rid: string, daysOfWeek: number, start: string, end: string) =>
      call('POST', at(`/resources/${rid}/working-hours`), { workingHours: [{ daysOfWeek, hours: [{ start, end }] }] });

    const court1 = await id('/resources', { name: 'Court 1 (clay)', color: '#D84315' });
    const court2 = await id('/resources', { name: 'Court 2 (indoor)', color: '#1565C0' });
    const coach = await id('/resources', { name: 'Coach Janis', color: '#F9A825' });
    const machine = await id('/resources', { name: 'Ball machine', color: '#558B2F' });
    const room = await id('/resources', { name: 'Clubhouse guest room', color: '#795548' });
    for (const court of [court1, court2]) await hours(court, 127, '07:00', '22:00');
    await hours(coach, 124, '15:00', '21:00');
    await hours(machine, 127, '07:00', '22:00');
    await hours(room, 127, '00:00', '24:00');

    const settings = (more: Json) => ({ availabilityPeriod: 'P60D', currency: 'EUR', ...more });
    const rental = await id('/services', { name: 'Court rental', type: 'flexible', settings: settings({ timeInterval: 'PT30M' }) });
    const lesson = await id('/services', { name: 'Private lesson', type: 'fixed', settings: settings({ duration: 'PT1H' }) });
    const cardio = await id('/services', { name: 'Cardio tennis', type: 'group', settings: settings({ duration: 'PT1H' }) });
    const tournament = await id('/services', { name: 'Club tournament', type: 'ticket', settings: settings({ duration: 'PT6H' }) });
    const balls = await id('/services', { name: 'Ball machine', type: 'sharable', settings: settings({ timeInterval: 'PT15M' }) });
    const stay = await id('/services', {
      name: 'Guest room stay',
      type: 'days',
      settings: settings({ checkInTime: '15:00', checkOutTime: '11:00' }),
    });

    for (const court of [court1, court2]) await call('POST', at(`/services/${rental}/links`), { resourceID: court });
    // a lesson takes the coach and whichever court is free
    await call('POST', at(`/services/${lesson}/links`), { resourceID: coach, relatedResourceIDs: { all: [], any: [court1, court2] } });
    await call('POST', at(`/services/${cardio}/links`), { resourceID: court2 });
    await call('POST', at(`/services/${tournament}/links`), { resourceID: court1 });
    await call('POST', at(`/services/${balls}/links`), { resourceID: machine });
    await call('POST', at(`/services/${stay}/links`), { resourceID: room });

    const rentalPrice = { type: 'flexible', duration: 'PT1H', minDuration: 'PT1H', maxDuration: 'PT3H' };
    await call('POST', at(`/services/${rental}/prices`), { ...rentalPrice, priority: 1, price: { price: 2000 } });
    // evenings cost more
    await call('POST', at(`/services/${rental}/prices`), {
      ...rentalPrice,
      priority: 2,
      price: { price: 2600 },
      limitation: { times: [{ start: '17:00', end: '22:00' }] },
    });
    await call('POST', at(`/services/${lesson}/prices`), { type: 'fixed', priority: 1, price: { price: 4500 } });
    await call('POST', at(`/services/${cardio}/capacities`), { type: 'group', spots: 8 });
    await call('POST', at(`/services/${cardio}/prices`), { type: 'group', priority: 1, price: { price: 1200 } });
    await call('POST', at(`/services/${cardio}/slots`), {
      resourceID: court2,
      startTime: localAt(now, nextWeekday(now, 1), '19:00'),
      duration: 'PT1H',
      repeat: { rrule: 'FREQ=WEEKLY;BYDAY=MO,WE', timeZone: ZONE },
    });
    const player = await id(`/services/${tournament}/tickets`, { name: 'Player' });
    const spectator = await id(`/services/${tournament}/tickets`, { name: 'Spectator' });
    await call('POST', at(`/services/${tournament}/capacities`), { type: 'ticket', spots: 60, spotsPerTicket: { [player]: 16 } });
    await call('POST', at(`/services/${tournament}/prices`), { type: 'ticket', priority: 1, ticketID: player, price: { price: 2500 } });
    await call('POST', at(`/services/${tournament}/prices`), { type: 'ticket', priority: 1, ticketID: spectator, price: { price: 500 } });
    const tournamentDay = nextWeekday(now, 6) + 7;
    await call('POST', at(`/services/${tournament}/slots`), {
      resourceID: court1,
      startTime: localAt(now, tournamentDay, '10:00'),
      duration: 'PT6H',
    });
    await call('POST', at(`/services/${balls}/prices`), { type: 'sharable', priority: 1, duration: 'PT15M', price: { price: 200 } });
    await call('POST', at(`/services/${stay}/prices`), { type: 'days', priority: 1, duration: 'P1D', price: { price: 6500 } });
    // Court 1 is resurfaced one morning next week
    const works = nextWeekday(now, 2);
    await call('POST', at(`/resources/${court1}/closing-periods`), {
      startTime: localAt(now, works, '07:00'),
      endTime: localAt(now, works, '12:00'),
    });

    const S = '/plugins/subscription';
    await call('PATCH', at(`${S}/settings`), { currency: 'EUR', taxInclusive: true, taxRate: 21, cartExpiration: 'PT30M' });
    const plan = await id(`${S}/list`, {
      title: '8 court hours a month',
      duration: 'P1M',
      serviceIDs: [rental],
      limitations: { bookingsCount: 8, daysOfWeek: 124, times: [{ startTime: '07:00', endTime: '17:00' }] },
    });
    await call('POST', at(`${S}/price-rules`), { subscriptionIDs: [plan], price: 12000, comparedPrice: 16000 });
    await call('POST', at('/webhooks'), {
      url: 'http://localhost:4001/hooks',
      eventTypes: ['booking.created', 'booking.cancelled', 'payment.paid'],
      description: 'demo: a local receiver (disabled; enable it with WEBHOOK_ALLOW_INSECURE=true)',
      enabled: false,
    });

    const people = await clients(call, cid, [
      ['Anete', 'Krumina'],
      ['Martins', 'Eglitis'],
      ['Oskars', 'Zarins'],
      ['Zane', 'Kalnina'],
    ]);
    // the scheduled classes and the tournament first, then lessons and rentals around them
    await bookAhead(call, cid, cardio, now, people, 1, { spots: 3 });
    await bookAhead(call, cid, tournament, now, people, 1, { tickets: { [player]: 2, [spectator]: 3 } });
    await bookAhead(call, cid, lesson, now, people, 1);
    await bookAhead(call, cid, rental, now, people, 3, { duration: 'PT1H' });
    const checkIn = nextWeekday(now, 5);
    await call('POST', at('/bookings'), {
      serviceID: stay,
      resourceID: room,
      startTime: localAt(now, checkIn, '15:00'),
      duration: 'P2D',
      clientID: people[0],
      notify: false,
    });
  },
};

const COMPANIES: DemoCompany[] = [salon, tennis];
