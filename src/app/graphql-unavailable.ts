import type { ApolloServerPlugin } from '@apollo/server';
import type { Ctx } from '../kernel/context';

/**
 * GraphQL answers `service_unavailable` (database unreachable, server busy) the way REST does:
 * `Retry-After`, and status 503 when nothing of the operation could be answered (whatever the
 * media type: a server failure keeps its status, see graphql-http.ts).
 */
export const unavailablePlugin: ApolloServerPlugin<Ctx> = {
  async requestDidStart() {
    return {
      async willSendResponse({ response }) {
        if (response.body.kind !== 'single') return;
        const result = response.body.singleResult;
        if (!result.errors?.some((e) => e.extensions?.code === 'service_unavailable')) return;
        response.http.headers.set('retry-after', '1');
        // nothing answered: no data, or every (nullable) root field null
        const data = result.data;
        if (data === null || data === undefined || Object.values(data).every((v) => v === null)) response.http.status = 503;
      },
    };
  },
};
