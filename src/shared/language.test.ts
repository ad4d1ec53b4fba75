import { canonicalLanguage } from './language';

it('canonicalises BCP 47 tags and refuses what is not one', () => {
  expect(canonicalLanguage('LV')).toBe('lv');
  expect(canonicalLanguage('en-gb')).toBe('en-GB');
  expect(canonicalLanguage('lv-LV')).toBe('lv-LV');
  for (const bad of ['not a tag', 'x'.repeat(40), '', 'en_US', 'en-', '-en', 'i', 'lv-LV-', 'e\u0301n', 42, null])
    expect(canonicalLanguage(bad)).toBeNull();
});
