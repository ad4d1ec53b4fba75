import { randomUUID } from 'node:crypto';
import type { TestApp } from './app';

/**
 * Direct inserts of catalog, rule and occupancy rows, for tests that exercise a computation
 * (availability) on precise fixtures. The rows go to the real database, through the same
 * tables and constraints the API writes to.
 */
export class Fixtures {
  constructor(
    private t: TestApp,
    readonly companyId: string,
  ) {}

  private async sql(text: string, params: unknown[]): Promise<void> {
    await this.t.deps.orm.em.fork().getConnection().execute(text, params);
  }

  async service(type: string, settings: Record<string, unknown>, name = `${type} service`): Promise<string> {
    const id = randomUUID();
    await this.sql(`insert into service (id, company_id, name, type, settings) values (?, ?, ?, ?, ?::jsonb)`, [
      id,
      this.companyId,
      name,
      type,
      JSON.stringify(settings),
    ]);
    return id;
  }

  async resource(name: string, opts: { disabled?: boolean } = {}): Promise<string> {
    const id = randomUUID();
    await this.sql(`insert into resource (id, company_id, name, color, disabled_at) values (?, ?, ?, '#336699', ?)`, [
      id,
      this.companyId,
      name,
      opts.disabled ? new Date().toISOString() : null,
    ]);
    return id;
  }

  async link(serviceId: string, resourceId: string, related: { all?: string[]; any?: string[] } = {}): Promise<void> {
    await this.sql(
      `insert into service_resource_link (id, company_id, service_id, resource_id, related_resource_ids) values (?, ?, ?, ?, ?::jsonb)`,
      [randomUUID(), this.companyId, serviceId, resourceId, JSON.stringify({ all: related.all ?? [], any: related.any ?? [] })],
    );
  }

  async hours(
    resourceId: string,
    days: { daysOfWeek: number; hours: { start: string; end: string }[] }[],
    opts: { priority?: number; start?: string; end?: string; serviceIds?: string[] } = {},
  ): Promise<void> {
    await this.sql(
      `insert into working_hours_rule (id, company_id, resource_id, service_ids, start_time, end_time, priority, working_hours) values (?, ?, ?, ?::jsonb, ?, ?, ?, ?::jsonb)`,
      [
        randomUUID(),
        this.companyId,
        resourceId,
        JSON.stringify(opts.serviceIds ?? []),
        opts.start ?? null,
        opts.end ?? null,
        opts.priority ?? 0,
        JSON.stringify(days),
      ],
    );
  }

  async closing(resourceId: string, start: string, end: string): Promise<void> {
    await this.sql(`insert into closing_period (id, company_id, resource_id, start_time, end_time) values (?, ?, ?, ?, ?)`, [
      randomUUID(),
      this.companyId,
      resourceId,
      start,
      end,
    ]);
  }

  /** A confirmed booking occupying [start - before, end + after) of `resourceId`. */
  async booking(
    serviceId: string,
    resourceId: string,
    start: string,
    end: string | null,
    buffers: { before?: number; after?: number } = {},
  ): Promise<string> {
    const id = randomUUID();
    await this.sql(
      `insert into booking (id, company_id, service_id, resource_id, type, status, start_time, end_time, buffer_before_sec, buffer_after_sec) values (?, ?, ?, ?, 'fixed', 'confirmed', ?, ?, ?, ?)`,
      [id, this.companyId, serviceId, resourceId, start, end, buffers.before ?? 0, buffers.after ?? 0],
    );
    await this.sql(
      `insert into booking_occupancy (company_id, booking_id, resource_id, during) values (?, ?, ?, tstzrange(?::timestamptz - make_interval(secs => ?), ?::timestamptz + make_interval(secs => ?), '[)'))`,
      [this.companyId, id, resourceId, start, buffers.before ?? 0, end, buffers.after ?? 0],
    );
    return id;
  }

  async slot(
    serviceId: string,
    resourceId: string | null,
    start: string,
    durationSec: number,
    repeat?: { rrule: string; timeZone: string },
  ): Promise<string> {
    const id = randomUUID();
    await this.sql(
      `insert into slot (id, company_id, service_id, resource_id, start_time, duration_sec, rrule, time_zone) values (?, ?, ?, ?, ?, ?, ?, ?)`,
      [id, this.companyId, serviceId, resourceId, start, durationSec, repeat?.rrule ?? null, repeat?.timeZone ?? null],
    );
    return id;
  }

  async slotUsage(
    serviceId: string,
    resourceId: string,
    start: string,
    spots: number,
    perTicket: Record<string, number> = {},
  ): Promise<void> {
    await this.sql(
      `insert into slot_usage (company_id, service_id, resource_id, start_time, booked_spots, booked_per_ticket) values (?, ?, ?, ?, ?, ?::jsonb)`,
      [this.companyId, serviceId, resourceId, start, spots, JSON.stringify(perTicket)],
    );
  }

  async capacity(serviceId: string, type: 'group' | 'ticket', spots: number, spotsPerTicket: Record<string, number> = {}): Promise<void> {
    await this.sql(
      `insert into capacity_rule (id, company_id, service_id, type, spots, spots_per_ticket) values (?, ?, ?, ?, ?, ?::jsonb)`,
      [randomUUID(), this.companyId, serviceId, type, spots, JSON.stringify(spotsPerTicket)],
    );
  }

  async ticket(serviceId: string, name: string): Promise<string> {
    const id = randomUUID();
    await this.sql(`insert into ticket (id, company_id, service_id, name) values (?, ?, ?, ?)`, [id, this.companyId, serviceId, name]);
    return id;
  }

  async price(
    serviceId: string,
    type: string,
    price: number,
    opts: { durationSec?: number; minSec?: number; maxSec?: number; ticketId?: string; priority?: number; compared?: number } = {},
  ): Promise<void> {
    await this.sql(
      `insert into price_rule (id, company_id, service_id, type, priority, price, compared_price, duration_sec, min_duration_sec, max_duration_sec, ticket_id) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        randomUUID(),
        this.companyId,
        serviceId,
        type,
        opts.priority ?? 0,
        price,
        opts.compared ?? null,
        opts.durationSec ?? null,
        opts.minSec ?? null,
        opts.maxSec ?? null,
        opts.ticketId ?? null,
      ],
    );
  }
}

export const EVERY_DAY = 127;
export const WEEKDAYS = 124;
