import { displayName, isAddress } from './address';

it('accepts one plain address and refuses anything that could add a recipient or a header', () => {
  expect(isAddress('anna.berzina@example.lv')).toBe(true);
  for (const bad of [
    '',
    'a@b',
    'a b@example.com',
    'a@example.com\r\nBcc: x@example.com',
    'a@example.com, b@example.com',
    '<a@example.com>',
    'a"@example.com',
  ])
    expect(isAddress(bad)).toBe(false);
});

it('strips line breaks and quotes from display names', () => {
  expect(displayName('Salon "Anna"\r\nBcc: x')).toBe('Salon Anna Bcc: x');
});
