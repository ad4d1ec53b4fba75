import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { printGraphqlSchema } from '../app/graphql';

/** Writes the code-first schema to schema.graphql at the repository root. */
const root = join(__dirname, '..', '..', '..');
writeFileSync(join(root, 'schema.graphql'), printGraphqlSchema());
console.log('schema.graphql written');
