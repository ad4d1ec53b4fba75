import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { functionsDir } from '../../db/function-files';
import { CATALOG_CHANGED } from './booking-kept-catalog';

describe('booking_insert_at_version', () => {
  it('fails with the SQLSTATE the commit looks for', () => {
    const text = readFileSync(join(functionsDir(), 'booking_insert_at_version.sql'), 'utf8');
    expect(text).toContain(`using errcode = '${CATALOG_CHANGED}'`);
  });
});
