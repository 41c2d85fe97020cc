// Writes fixtures/fixture.schema.json from the fixture format's description (src/core/schema.ts
// and each family's part): `npm run fixture-schema`. A test checks the committed file is current.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fixtureJsonSchema } from '../src/families/registry.js';

export const FIXTURE_SCHEMA_FILE = join(import.meta.dirname, '..', 'fixtures', 'fixture.schema.json');
export const fixtureSchemaText = () => `${JSON.stringify(fixtureJsonSchema(), null, 2)}\n`;

if (process.argv[1] && import.meta.filename === process.argv[1]) writeFileSync(FIXTURE_SCHEMA_FILE, fixtureSchemaText());
