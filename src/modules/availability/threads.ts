import { join } from 'node:path';
import type { AppDeps } from '../../kernel/context';
import { ThreadPool } from '../../kernel/thread-pool';
import type { TimesJob } from './availability.compute';

const pools = new WeakMap<AppDeps, ThreadPool<TimesJob, Uint8Array> | null>();

/** The worker threads computing long availability windows, or null when AVAILABILITY_THREADS is 0. */
export function availabilityThreads(deps: AppDeps): ThreadPool<TimesJob, Uint8Array> | null {
  let pool = pools.get(deps);
  if (pool === undefined) {
    const size = deps.config.availabilityThreads;
    // The worker module sits next to this one: .js when built, .ts when run from the sources.
    const file = join(__dirname, `availability.worker${__filename.slice(__filename.lastIndexOf('.'))}`);
    pool =
      size > 0 ? new ThreadPool<TimesJob, Uint8Array>(file, size, (err) => deps.log.error({ err }, 'availability thread failed')) : null;
    if (pool) deps.log.info(`long availability windows are computed on ${size} worker thread(s)`);
    pools.set(deps, pool);
  }
  return pool;
}
