import AjvCompiler from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

type Factory = ReturnType<typeof AjvCompiler>;
type Compiler = ReturnType<Factory>;
type RouteDefinition = Parameters<Compiler>[0];
type Validate = ReturnType<Compiler>;

/**
 * Fastify's own request validators (Ajv, through `@fastify/ajv-compiler`, with the server's Ajv
 * options), each compiled when its route first validates a request instead of when the route is
 * registered: compiling the validators of every route took about a second of each start, and a
 * process answers few of its routes in its first seconds. A schema Ajv refuses would then fail
 * at its route's first request rather than at start; `compileAll` compiles every one, which a
 * test does for all routes.
 */
export class LazyValidators {
  private readonly pending = new Set<() => void>();
  private readonly ajv = AjvCompiler();

  /** For the server options: `schemaController: { compilersFactory: { buildValidator } }`. */
  readonly buildValidator: Factory = (externalSchemas, options) => {
    const compile = this.ajv(externalSchemas, options);
    return (route: RouteDefinition) => this.lazy(() => compile(route));
  };

  /** Compiles every validator not compiled yet; throws what Ajv throws for a schema. */
  compileAll(): number {
    let n = 0;
    for (const compile of [...this.pending]) {
      compile();
      n++;
    }
    return n;
  }

  private lazy(compile: () => Validate): Validate {
    let compiled: Validate | null = null;
    const ensure = () => {
      if (compiled) return compiled;
      compiled = compile();
      this.pending.delete(ensure);
      return compiled;
    };
    this.pending.add(ensure);
    // Fastify calls a validator with the data and reads `errors` from it after a failure.
    const validate = ((data: unknown, ...rest: unknown[]) => {
      const fn = ensure() as unknown as (data: unknown, ...rest: unknown[]) => unknown;
      const ok = fn(data, ...rest);
      (validate as { errors?: unknown }).errors = (fn as { errors?: unknown }).errors;
      return ok;
    }) as unknown as Validate;
    return validate;
  }

  /** The server option that installs them. */
  options(): Pick<FastifyServerOptions, 'schemaController'> {
    return { schemaController: { compilersFactory: { buildValidator: this.buildValidator as never } } };
  }
}
