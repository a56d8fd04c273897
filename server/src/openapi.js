// The OpenAPI 3.1 document, made by @fastify/swagger from the routes' own schemas (request schemas in app.js,
// answers in schemas.js), served at GET /v1/openapi.json without a key: it is the contract, not a secret, and
// a client reads it before it has a key. server/openapi.json is the same document, written by
// scripts/openapi.js and checked for drift by scripts/test-server-api.sh.
import { createRequire } from 'node:module';
import swagger from '@fastify/swagger';
import { DOCS } from './schemas.js';

const { version } = createRequire(import.meta.url)('../package.json');
const GENERATED_BY = 'server/scripts/openapi.js, from the routes\' schemas (do not edit: run it again)';

// What the plugin cannot take from a route's schema, marked in schemas.js and moved into place here: a
// response header whose schema says `x-required` is one the answer always carries (OpenAPI keeps `required`
// on the header, beside its schema); a route marked `x-body-optional` may be sent without a body (the plugin
// writes every body as required); a body's example; the links of an answer.
function finish(doc) {
  for (const methods of Object.values(doc.paths)) {
    for (const op of Object.values(methods)) {
      if (op['x-body-optional']) op.requestBody.required = false;
      if (op['x-body-example']) op.requestBody.content['application/json'].example = op['x-body-example'];
      for (const [status, links] of Object.entries(op['x-links'] ?? {})) op.responses[status].links = links;
      for (const key of ['x-body-optional', 'x-body-example', 'x-links']) delete op[key];
      for (const response of Object.values(op.responses ?? {})) {
        for (const header of Object.values(response.headers ?? {})) {
          if (header.schema['x-required']) header.required = true;
          delete header.schema['x-required'];
        }
      }
    }
  }
  return doc;
}

/** Registers the document's plugin on `app`; call it before any route is added. */
export function installOpenApi(app) {
  // Answers leave through JSON.stringify, as they did before they had schemas: a schema never drops or
  // changes a field, so the fuzzer sees what a client sees.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  // The plugin's setup is run at once, not queued with app.register: its onRoute hook must see the routes
  // buildApp adds right after this call, outside any plugin.
  swagger.fastifySwagger(app, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'fairmines-server', version, 'x-generated-by': GENERATED_BY,
        description: "The operator's provably fair Mines game service. Every error answer is "
          + '{"error": {"code", "message", "argument"}}; server/README.md tells what each code means.' },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer',
        description: 'an API key (FAIRMINES_API_KEY); /metrics takes a FAIRMINES_METRICS_TOKEN too' } } },
      security: [{ bearer: [] }],
    },
    transformObject: ({ openapiObject }) => finish(openapiObject),
  }, (err) => { if (err) throw err; });
  app.get('/v1/openapi.json', { schema: DOCS.openapi, config: { public: true, beforeReady: true } },
    async () => app.swagger());
}
