import type { FastifyError, FastifyInstance } from 'fastify';
import { DomainError, toDomainError } from '../shared/errors';
import { isGraphqlRequest, sendGraphqlError } from './graphql-http';

/** The one REST error mapper: every failure becomes `{code, message, details?}`. */
export function installErrorHandlers(app: FastifyInstance): void {
  app.setErrorHandler(
    (
      err: FastifyError & {
        validation?: { instancePath?: string; message?: string; params?: Record<string, unknown> }[];
        validationContext?: string;
      },
      req,
      reply,
    ) => {
      let domain: DomainError;
      if (err.validation) {
        const where = err.validationContext ?? 'body';
        const details = err.validation.map((v) => {
          const missing = v.params && typeof v.params.missingProperty === 'string' ? `/${v.params.missingProperty}` : '';
          // Body fields are named as the services name them (`timeZone`), other parts keep their prefix.
          const path = `${where === 'body' ? '' : where}${v.instancePath ?? ''}${missing}`.replace(/\//g, '.').replace(/^\./, '');
          return { path, message: v.message ?? 'is invalid' };
        });
        domain = new DomainError('invalid_request', `invalid request: ${details.map((d) => `${d.path} ${d.message}`).join('; ')}`, details);
      } else if (err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' || err.statusCode === 413) {
        domain = new DomainError('payload_too_large', 'the request body is too large (JSON bodies are limited to 1 MiB)');
      } else if (err.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE' || err.statusCode === 415) {
        domain = new DomainError('unsupported_media_type', 'unsupported content type; send application/json');
      } else if (
        err.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' ||
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' ||
        err instanceof SyntaxError ||
        (err.statusCode === 400 && !(err instanceof DomainError))
      ) {
        domain = new DomainError('invalid_request', 'the request body is not valid JSON');
      } else {
        domain = toDomainError(err);
      }
      if (domain.code === 'internal_error') req.log.error({ err }, 'unexpected error');
      // The driver's reason only: the query builder puts the statement (and its values) before it.
      if (domain.code === 'service_unavailable')
        req.log.warn({ cause: String(err.message).split(' - ').pop(), code: err.code }, domain.message);
      if (domain.retryAfterSec !== undefined) reply.header('retry-after', String(domain.retryAfterSec));
      // A request to /graphql gets a GraphQL response; failures the services or hooks raise
      // (credentials, rate limit) concern a well-formed request, parser failures do not.
      if (isGraphqlRequest(req.url)) return sendGraphqlError(req, reply, domain, err instanceof DomainError);
      reply
        .code(domain.status)
        .type('application/json')
        .send({ code: domain.code, message: domain.message, ...(domain.details ? { details: domain.details } : {}) });
    },
  );

  app.setNotFoundHandler((req, reply) => {
    // GraphQL is served on GET and POST only (GraphQL-over-HTTP: 405 with Allow).
    if (isGraphqlRequest(req.url)) {
      reply.header('allow', 'GET, POST');
      return sendGraphqlError(
        req,
        reply,
        { code: 'invalid_request', message: `GraphQL is served on GET and POST, not ${req.method}`, status: 405 },
        false,
      );
    }
    reply.code(404).send({ code: 'not_found', message: `no route ${req.method} ${req.url.split('?')[0].slice(0, 200)}` });
  });
}
