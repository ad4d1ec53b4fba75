import type { ApolloServerPlugin } from '@apollo/server';
import type { Ctx } from '../kernel/context';

/**
 * GraphQL answers `service_unavailable` (database unreachable, server busy) the way REST does:
 * `Retry-After`, and status 503 when nothing of the operation could be answered.
 */
export const unavailablePlugin: ApolloServerPlugin<Ctx> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        if (!result.errors?.some((e) => e.extensions?.code === 'service_unavailable')) return;
        response.http.headers.set('retry-after', '1');
        if (result.data === null || result.data === undefined) response.http.status = 503;
      },
    };
  },
};
