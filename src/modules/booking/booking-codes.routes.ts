import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { validateClientCode } from './code-validation.service';

const validationSchema = S.out({
  canApply: S.bool,
  clientEmail: S.nstr,
  clientID: { type: ['string', 'null'], format: 'uuid' },
  pluginNameSpace: S.nstr,
  pluginResponse: S.obj,
  price: S.int,
});

export function codeRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'POST',
      url: '/v1/client/codes/:code/validate',
      auth: 'key|bearer',
      summary: 'Validate code before booking (a code that cannot apply is 200 {canApply: false})',
      tags: ['client interface'],
      params: S.params('code'),
      body: S.object(
        {
          code: S.nstr,
          companyID: S.str,
          duration: S.str,
          resourceID: S.str,
          serviceID: S.str,
          spots: S.int,
          startTime: S.str,
          tickets: S.obj,
        },
        ['companyID', 'serviceID', 'startTime'],
      ),
      response: { 200: validationSchema, 409: S.error, ...errors },
      handler: (ctx, req) => validateClientCode(ctx, (req.params as { code: string }).code, req.body as object),
    },
  ]);
}
