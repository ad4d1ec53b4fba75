// Reads an OpenAPI document as integrators' tools do and prints what they say, as JSON:
// Redocly's recommended rules, swagger-parser's validation, and openapi-typescript's output.
// (These packages are ES modules; the integration test runs this file in its own process.)
import { readFileSync } from 'node:fs';
import process from 'node:process';
import { createConfig, lintFromString } from '@redocly/openapi-core';
import SwaggerParser from '@apidevtools/swagger-parser';
import openapiTS, { astToString } from 'openapi-typescript';

const file = process.argv[2];
const source = readFileSync(file, 'utf8');
const problems = await lintFromString({ source, absoluteRef: file, config: await createConfig({ extends: ['recommended'] }) });
let swaggerParser = 'valid';
try {
  await SwaggerParser.validate(file);
} catch (err) {
  swaggerParser = String(err?.message ?? err);
}
let typescript;
try {
  typescript = astToString(await openapiTS(JSON.parse(source)));
} catch (err) {
  typescript = `error: ${err?.message ?? err}`;
}
process.stdout.write(
  JSON.stringify({
    redocly: problems.map((p) => `${p.severity} ${p.ruleId}: ${p.message} at ${p.location[0]?.pointer ?? ''}`),
    swaggerParser,
    typescript,
  }),
);
