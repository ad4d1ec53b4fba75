import { checkTemplate, oneLine, renderTemplate } from './templates';

describe('checkTemplate', () => {
  const vars = ['client.name', 'booking.date'];

  it('accepts known variables and if/unless blocks', () => {
    expect(checkTemplate('html', '<p>Hi {{client.name}}</p>{{#if booking.date}}{{booking.date}}{{else}}-{{/if}}', vars)).toEqual([]);
    expect(checkTemplate('text', '{{#unless client.name}}friend{{/unless}}', vars)).toEqual([]);
  });

  it('refuses an unknown variable with its line and column', () => {
    expect(checkTemplate('html', 'Hello\n  {{client.age}}', vars)).toEqual([
      { path: 'html', message: 'line 2, column 3: unknown variable client.age' },
    ]);
  });

  it('refuses a template that does not compile, with the position where it stopped', () => {
    const [d] = checkTemplate('subject', 'Hi {{client.name', vars);
    expect(d.path).toBe('subject');
    expect(d.message).toMatch(/^line 1, column \d+: the template does not compile/);
    const [e] = checkTemplate('text', 'a\nb {{#if client.name}}c', vars);
    expect(e.message).toMatch(/^line 2, column \d+: the template does not compile/);
  });

  it('refuses raw output in html, helpers, partials and paths outside the variables', () => {
    const msgs = checkTemplate(
      'html',
      '{{{client.name}}} {{#each x}}{{/each}} {{> p}} {{lookup a b}} {{../x}} {{@root.x}} {{this}}',
      vars,
    ).map((d) => d.message);
    expect(msgs).toEqual([
      'line 1, column 1: unescaped output ({{{ }}}) is not allowed in html',
      'line 1, column 19: only {{#if variable}} and {{#unless variable}} blocks are allowed',
      'line 1, column 40: partials and decorators are not allowed',
      'line 1, column 48: helpers are not allowed; use {{variable}}',
      'line 1, column 63: ../x is not allowed; name a variable',
      'line 1, column 72: @root.x is not allowed; name a variable',
      'line 1, column 84: this is not allowed; name a variable',
    ]);
  });
});

describe('renderTemplate', () => {
  const t = { subject: 'Booked: {{client.name}}', text: 'Hi {{client.name}}', html: '<p>Hi {{client.name}}</p>' };

  it('escapes values in html and keeps them as they are in text', () => {
    const r = renderTemplate(t, { client: { name: '<script>alert(1)</script> & "x"' } });
    expect(r.html).toBe('<p>Hi &lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;x&quot;</p>');
    expect(r.text).toBe('Hi <script>alert(1)</script> & "x"');
  });

  it('takes line breaks out of the subject, so a value cannot add a header', () => {
    const r = renderTemplate(t, { client: { name: 'Eve\r\nBcc: victim@example.com' } });
    expect(r.subject).toBe('Booked: Eve Bcc: victim@example.com');
    expect(oneLine('a\u2028b\tc')).toBe('a b c');
  });

  it('reads no prototype properties', () => {
    expect(renderTemplate({ ...t, text: '{{client.constructor}}' }, { client: {} }).text).toBe('');
  });
});
