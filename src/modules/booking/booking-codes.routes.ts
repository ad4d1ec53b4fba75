import type { FastifyInstance } from 'fastify';
import { defineRoutes, errors, S } from '../../kernel/rest';
import { CODE_LOOKUP_ORDER } from '../../kernel/codes';
import { validateClientCode } from './code-validation.service';

const validationSchema = S.named(
  'CodeValidation',
  S.out({
    canApply: S.bool,
    clientEmail: S.nstr,
    clientID: { type: ['string', 'null'], format: 'uuid' },
    pluginNameSpace: S.nOneOf(CODE_LOOKUP_ORDER),
    pluginResponse: S.obj,
    price: S.int,
  }),
);

const validateBody = S.named(
  'ValidateCodeInput',
  S.object(
    {
      code: { ...S.nstr, description: 'The code again, optional; when given it must match the path (in any case).' },
      companyID: S.str,
      duration: S.str,
      resourceID: S.str,
      serviceID: S.str,
      spots: S.int,
      startTime: S.str,
      tickets: { ...S.obj, description: 'Tickets, for ticket services: spots by ticket id.' },
    },
    ['companyID', 'serviceID', 'startTime'],
  ),
);

export function codeRoutes(app: FastifyInstance): void {
  defineRoutes(app, [
    {
      method: 'POST',
      url: '/v1/client/codes/:code/validate',
      operationId: 'validateClientCode',
      auth: 'key|bearer',
      summary: 'Validate code before booking (a code that cannot apply is 200 {canApply: false})',
      params: S.params('code'),
      body: validateBody,
      response: { 200: validationSchema, 409: S.error, ...errors },
      handler: (ctx, req) => validateClientCode(ctx, (req.params as { code: string }).code, req.body as object),
    },
  ]);
}
