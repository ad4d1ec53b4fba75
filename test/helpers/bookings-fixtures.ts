import type { Res, TestApp } from './app';

/** Catalog and rule fixtures for the booking tests, created through the REST API. */

export const EVERY_DAY = 127;

function ok(r: Res, what: string, status = 201): any {
  if (r.status !== status) throw new Error(`${what}: ${r.status} ${r.text}`);
  return r.body;
}

export class Shop {
  constructor(
    readonly t: TestApp,
    readonly companyId: string,
    readonly key: string,
  ) {}

  static async open(t: TestApp, name = 'Shop', zone = 'Europe/Riga', key = t.adminKey): Promise<Shop> {
    const c = await t.company(name, zone, key);
    return new Shop(t, c.id, key);
  }

  get base(): string {
    return `/v1/companies/${this.companyId}`;
  }

  private post(path: string, body: unknown, what: string): Promise<any> {
    return this.t.call('POST', `${this.base}${path}`, { body, key: this.key }).then((r) => ok(r, what));
  }

  async service(type: string, settings: Record<string, unknown> = {}, name = `${type} service`): Promise<string> {
    return (await this.post('/services', { name, type, settings }, 'service')).id;
  }

  async resource(name: string): Promise<string> {
    return (await this.post('/resources', { name, color: '#336699' }, 'resource')).id;
  }

  async link(serviceId: string, resourceId: string, related?: { all?: string[]; any?: string[] }): Promise<void> {
    await this.post(
      `/services/${serviceId}/links`,
      { resourceID: resourceId, ...(related ? { relatedResourceIDs: { all: related.all ?? [], any: related.any ?? [] } } : {}) },
      'link',
    );
  }

  /** Open every day between `start` and `end` (local wall time). */
  async hours(resourceId: string, start = '00:00', end = '24:00'): Promise<void> {
    await this.post(
      `/resources/${resourceId}/working-hours`,
      { workingHours: [{ daysOfWeek: EVERY_DAY, hours: [{ start, end }] }] },
      'working hours',
    );
  }

  async price(serviceId: string, type: string, price: number, extra: Record<string, unknown> = {}): Promise<void> {
    await this.post(`/services/${serviceId}/prices`, { type, priority: 1, price: { price, comparedPrice: price }, ...extra }, 'price rule');
  }

  async capacity(serviceId: string, type: 'group' | 'ticket', spots: number, spotsPerTicket?: Record<string, number>): Promise<void> {
    await this.post(`/services/${serviceId}/capacities`, { type, spots, ...(spotsPerTicket ? { spotsPerTicket } : {}) }, 'capacity');
  }

  async slot(
    serviceId: string,
    resourceId: string | null,
    startTime: string,
    duration = 'PT1H',
    repeat?: Record<string, unknown>,
  ): Promise<void> {
    await this.post(`/services/${serviceId}/slots`, { startTime, duration, resourceID: resourceId, ...(repeat ? { repeat } : {}) }, 'slot');
  }

  async ticket(serviceId: string, name: string): Promise<string> {
    return (await this.post(`/services/${serviceId}/tickets`, { name }, 'ticket')).id;
  }

  /** A service of `type` linked to `n` resources open all day, every day. */
  async bookable(type: string, settings: Record<string, unknown>, n = 1): Promise<{ sid: string; rids: string[] }> {
    const sid = await this.service(type, settings);
    const rids: string[] = [];
    for (let i = 0; i < n; i++) {
      const rid = await this.resource(`R${i + 1} ${Math.random().toString(36).slice(2, 6)}`);
      await this.link(sid, rid);
      await this.hours(rid);
      rids.push(rid);
    }
    return { sid, rids };
  }

  book(body: Record<string, unknown>, opts: { key?: string; headers?: Record<string, string> } = {}): Promise<Res> {
    return this.t.call('POST', `${this.base}/bookings`, { body, key: opts.key ?? this.key, headers: opts.headers });
  }

  get(id: string): Promise<Res> {
    return this.t.call('GET', `${this.base}/bookings/${id}`, { key: this.key });
  }

  patch(id: string, body: Record<string, unknown>): Promise<Res> {
    return this.t.call('PATCH', `${this.base}/bookings/${id}`, { body, key: this.key });
  }

  move(id: string, body: Record<string, unknown>): Promise<Res> {
    return this.t.call('POST', `${this.base}/bookings/${id}/move`, { body, key: this.key });
  }

  list(query: Record<string, string | number | boolean | undefined> = {}): Promise<Res> {
    return this.t.call('GET', `${this.base}/bookings`, { key: this.key, query });
  }

  /** Client access token for a client of this company (created on first login). */
  async login(email: string, clientKey: string): Promise<string> {
    const r = await this.t.call('POST', '/v1/client/auth/login', {
      key: clientKey,
      body: { companyID: this.companyId, email, externalUserID: email },
    });
    return ok(r, 'login', 200).accessToken;
  }
}

/** Occupancy rows of a booking, straight from the table. */
export async function occupancyOf(
  t: TestApp,
  bookingId: string,
): Promise<{ resource_id: string; source: string; lower: string | null; upper: string | null }[]> {
  return t.deps.orm.em
    .fork()
    .getConnection()
    .execute(
      `select resource_id, source, to_char(lower(during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as lower,
            to_char(upper(during) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as upper
       from booking_occupancy where booking_id = ? order by source, resource_id`,
      [bookingId],
    );
}

export async function countRows(t: TestApp, sql: string, params: unknown[]): Promise<number> {
  const rows = await t.deps.orm.em.fork().getConnection().execute<{ n: string }[]>(sql, params);
  return Number(rows[0].n);
}
