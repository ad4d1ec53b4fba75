import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { MikroORM } from '@mikro-orm/postgresql';
import { sqlStats } from '../db/stats';
import { keptCatalogStats } from '../modules/booking/booking-kept-catalog';
import { notificationStats } from '../modules/notification/delivery';
import { keptAvailabilityStats } from '../modules/availability/kept-availability';
import { keptAnswerStats } from '../modules/availability/kept-answers';
import { pacedStats } from '../kernel/paced-body';

/** Prometheus metrics of one server process. */
export function createMetrics(orm: MikroORM, writeOrm?: MikroORM) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'HTTP request latency by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.002, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  new Counter({
    name: 'db_statements_total',
    help: 'SQL statements sent to the database',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(sqlStats.statements);
    },
  });
  const poolOf = (o: MikroORM | undefined) => () => {
    try {
      return (
        (o?.em.getConnection().getKnex().client as { pool?: { numUsed(): number; numFree(): number; numPendingAcquires(): number } })
          ?.pool ?? null
      );
    } catch {
      return null;
    }
  };
  const pool = poolOf(orm);
  const writePool = poolOf(writeOrm);
  new Gauge({
    name: 'db_pool_connections_in_use',
    help: 'Database connections in use',
    registers: [registry],
    collect() {
      this.set(pool()?.numUsed() ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_connections_idle',
    help: 'Idle database connections',
    registers: [registry],
    collect() {
      this.set(pool()?.numFree() ?? 0);
    },
  });
  new Gauge({
    name: 'db_pool_pending_acquires',
    help: 'Requests waiting for a database connection',
    registers: [registry],
    collect() {
      this.set(pool()?.numPendingAcquires() ?? 0);
    },
  });
  new Gauge({
    name: 'db_write_pool_connections_in_use',
    help: 'Database connections of the pool of writes in use (DB_WRITE_POOL_MAX)',
    registers: [registry],
    collect() {
      this.set(writePool()?.numUsed() ?? 0);
    },
  });
  new Gauge({
    name: 'db_write_pool_pending_acquires',
    help: 'Writes waiting for a connection of their pool',
    registers: [registry],
    collect() {
      this.set(writePool()?.numPendingAcquires() ?? 0);
    },
  });
  new Counter({
    name: 'booking_checks_total',
    help: 'Single bookings by check: against the kept catalog (written, occupied) or in full (changed, rechecked, full)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(keptCatalogStats.outcomes)) this.inc({ outcome }, n);
    },
  });
  new Counter({
    name: 'booking_kept_catalog_loads_total',
    help: 'Catalog documents read to be kept for the checks of bookings',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(keptCatalogStats.loads);
    },
  });
  new Gauge({
    name: 'booking_kept_catalog_chars',
    help: 'Characters of JSON of the catalog documents kept for the checks of bookings',
    registers: [registry],
    collect() {
      this.set(keptCatalogStats.held().chars);
    },
  });
  new Counter({
    name: 'notification_messages_total',
    help: 'E-mail notification attempts of this process by event and the status they left the message in (queued: to be tried again)',
    labelNames: ['event', 'status'],
    registers: [registry],
    collect() {
      this.reset();
      for (const { event, status, n } of notificationStats.outcomes.values()) this.inc({ event, status }, n);
    },
  });
  new Counter({
    name: 'http_paced_answers_total',
    help: 'Answers above 1 MiB handed to their sockets piece by piece, sharing each turn of the event loop',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pacedStats.answers);
    },
  });
  new Counter({
    name: 'http_paced_bytes_total',
    help: 'Bytes of the answers handed to their sockets piece by piece',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pacedStats.bytes);
    },
  });
  new Counter({
    name: 'http_paced_full_turns_total',
    help: 'Turns of the event loop whose bytes for large answers were spent while pieces still waited for the next turn',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(pacedStats.fullTurns);
    },
  });
  new Gauge({
    name: 'http_paced_waiting_pieces',
    help: 'Pieces of large answers waiting for a turn of the event loop',
    registers: [registry],
    collect() {
      this.set(pacedStats.waiting());
    },
  });
  new Counter({
    name: 'availability_kept_answers_total',
    help: 'Availability documents by source: what the process keeps, after the version check alone (kept) or after reading part of it again (read), or read fresh (fresh)',
    labelNames: ['outcome'],
    registers: [registry],
    collect() {
      this.reset();
      for (const [outcome, n] of Object.entries(keptAvailabilityStats.answers)) this.inc({ outcome }, n);
    },
  });
  new Counter({
    name: 'availability_kept_reads_total',
    help: 'Parts read to be kept for availability answers: catalog documents (per service and window) and occupancy (per resource and window)',
    labelNames: ['part'],
    registers: [registry],
    collect() {
      this.reset();
      this.inc({ part: 'catalog' }, keptAvailabilityStats.catalogReads);
      this.inc({ part: 'occupancy' }, keptAvailabilityStats.occupancyReads);
    },
  });
  new Gauge({
    name: 'availability_kept_entries',
    help: 'Catalog documents, resource occupancies and times answers kept for availability answers',
    labelNames: ['part'],
    registers: [registry],
    collect() {
      const held = keptAvailabilityStats.held();
      this.set({ part: 'catalog' }, held.catalogs.count);
      this.set({ part: 'occupancy' }, held.occupancy.count);
      this.set({ part: 'answer' }, keptAnswerStats.held().count);
    },
  });
  new Gauge({
    name: 'availability_kept_bytes',
    help: 'Size of what is kept for availability answers: characters of JSON of the catalog documents, estimated bytes of the occupancy, bytes of the answers',
    labelNames: ['part'],
    registers: [registry],
    collect() {
      const held = keptAvailabilityStats.held();
      this.set({ part: 'catalog' }, held.catalogs.chars);
      this.set({ part: 'occupancy' }, held.occupancy.chars);
      this.set({ part: 'answer' }, keptAnswerStats.held().chars);
    },
  });
  new Counter({
    name: 'availability_kept_evictions_total',
    help: 'Kept availability data forgotten to stay within its bounds (least recently used first)',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(keptAvailabilityStats.evicted() + keptAnswerStats.evicted());
    },
  });
  new Counter({
    name: 'availability_kept_answer_hits_total',
    help: 'Times answers sent as kept: asked again while nothing they read changed',
    registers: [registry],
    collect() {
      this.reset();
      this.inc(keptAnswerStats.hits);
    },
  });
  const rateLimitStoreFailures = new Counter({
    name: 'rate_limit_store_failures_total',
    help: 'Requests let through without a rate limit because the shared store (Redis) could not be asked',
    registers: [registry],
  });
  const rateLimitStoreUp = new Gauge({
    name: 'rate_limit_store_up',
    help: 'With REDIS_URL: whether the shared rate-limit store answered the last request (1) or not (0)',
    registers: [registry],
  });
  return { registry, requests, latency, rateLimitStoreFailures, rateLimitStoreUp };
}
