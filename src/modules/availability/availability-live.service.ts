import type { Ctx } from '../../kernel/context';
import { liveFeed, liveStream } from '../../kernel/live';
import { invalid, notFound } from '../../shared/errors';
import { isUuid } from '../../shared/ids';
import { companyForClientInterface } from '../company/company.access';
import { changeOf, mergeChanges, watchedOf, type AvailabilityChangeJson, type Watched } from './availability-live';

/** The longest window a subscription may watch. */
const MAX_WINDOW_MS = 400 * 86_400_000;

/** The service's type, settings and links (null: no such service, or disabled). */
async function watched(ctx: Ctx, companyId: string, serviceId: string): Promise<Watched | null> {
  const rows = await ctx.deps.orm.em
    .fork()
    .getConnection()
    .execute<{ type: string; settings: object | null; resource_id: string | null; related_resource_ids: unknown }[]>(
      `select s.type, s.settings, l.resource_id, l.related_resource_ids from service s
        left join service_resource_link l on l.company_id = s.company_id and l.service_id = s.id
       where s.company_id = ? and s.id = ? and s.disabled_at is null`,
      [companyId, serviceId],
    );
  if (!rows.length) return null;
  const links = rows.filter((r) => r.resource_id !== null).map((r) => ({ resourceId: r.resource_id!, related: r.related_resource_ids }));
  return watchedOf(serviceId, rows[0].type, rows[0].settings, links);
}

/**
 * Client interface (a client token of the company, or an API key with client.read): which part
 * of the window [from, to) of a service's available times may have changed, as changes commit
 * (GraphQL `availabilityChanged`). It says what to fetch again; it does not send times.
 */
export async function availabilityChanges(
  ctx: Ctx,
  companyId: string,
  serviceId: unknown,
  from: Date,
  to: Date,
): Promise<AsyncIterableIterator<AvailabilityChangeJson>> {
  const company = await companyForClientInterface(ctx, companyId, 'client.read');
  if (!isUuid(serviceId)) throw invalid('serviceID must be a UUID', [{ path: 'serviceID', message: 'must be a UUID' }]);
  const lo = from.getTime();
  const hi = to.getTime();
  if (!(hi > lo)) throw invalid('to must be after from', [{ path: 'to', message: 'must be after from' }]);
  if (hi - lo > MAX_WINDOW_MS)
    throw invalid('the window is longer than 400 days', [{ path: 'to', message: 'at most 400 days after from' }]);
  const sid = serviceId.toLowerCase();
  let watch = await watched(ctx, company.id, sid);
  if (!watch) throw notFound('service');
  const feed = await liveFeed(ctx.deps);
  const release = await feed.watch(company.id, 'availability');
  return liveStream<AvailabilityChangeJson>(
    ctx,
    (push) => {
      const stop = feed.onAvailability(company.id, (notes) => {
        const { change, relinked } = changeOf(watch!, notes, lo, hi);
        // the service's links or settings changed: read them again for the changes to come
        if (relinked)
          void watched(ctx, company.id, sid).then(
            (w) => void (w && (watch = w)),
            (err: unknown) => ctx.log.warn({ err }, 'availabilityChanged: could not read the service again'),
          );
        if (change) push(change);
      });
      return () => {
        stop();
        release();
      };
    },
    mergeChanges,
  );
}
