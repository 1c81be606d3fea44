/**
 * The sales form's one statement of its fields: the HTML constraints read from the zod schema the
 * server checks, the server's verdict (values kept exactly as typed), the spam marks, and the one
 * renderer escaping whatever a visitor typed.
 */
import { describe, expect, it } from 'vitest'
import { buildRecordOf, describeBuildMismatch } from '../../lib/build-record.ts'
import { checkLeadForm, fieldControls, readLeadForm, spamReasonOf } from '../../lib/leads/form-fields.ts'
import { EMPTY_FORM, renderLeadFormSlot } from '../../lib/leads/form-html.ts'
import { buildLeadForm } from '../../lib/leads/form.ts'
import { leadFormPage, splitAtLeadSlot } from '../../lib/leads/form-page.ts'
import { loadContent } from '../../lib/content/parse.ts'
import { parseConfig } from '../../lib/env.ts'
import { buildSite } from '../../lib/site-model.ts'
import { projectRoot } from '../../harness/paths.ts'

const form = buildLeadForm(buildSite(parseConfig({ BASE_URL: 'https://agents.example.com' }), loadContent(projectRoot)))
const GOOD = {
  name: 'Ada Lovelace',
  email: 'ada@analytical.example',
  company: 'Analytical Engines',
  teamSize: '51-250',
  goal: 'Run our spring cohort.',
  topic: 'programme',
  plan: '',
}

describe('the sales form fields', () => {
  it('reads required, maxlength, type=email and the choices from the JSON Schema of the server’s zod schema', () => {
    expect(fieldControls(form.schema)).toEqual({
      name: { required: true, maxLength: 120, email: false, values: null },
      email: { required: true, maxLength: 254, email: true, values: null },
      company: { required: true, maxLength: 160, email: false, values: null },
      teamSize: { required: true, maxLength: null, email: false, values: ['1-10', '11-50', '51-250', '251+'] },
      goal: { required: true, maxLength: 10_000, email: false, values: null },
      topic: { required: true, maxLength: null, email: false, values: ['programme', 'partnership', 'security', 'agent-api'] },
      plan: { required: false, maxLength: null, email: false, values: ['personal', 'team', 'programme'] },
    })
  })

  it('keeps quotes, HTML, emoji, right-to-left text and a 10,000-character message exactly as typed; an empty plan is none', () => {
    const name = ` O'Brien "Bob" <b>x</b> 👩🏽‍💻 شريف `
    const goal = `${'🎯 مرحبا <i>'.repeat(1000)}`.slice(0, 10_000)
    expect(checkLeadForm({ ...GOOD, name, goal }, form.schema)).toEqual({ ok: true, fields: { ...GOOD, name, goal, plan: null } })
  })

  it('answers each wrong field with its message: blank, too long, not an email, not a choice, not a plan', () => {
    const verdict = checkLeadForm(
      { ...GOOD, name: '   ', company: 'x'.repeat(161), email: 'ada@localhost', teamSize: '7', plan: 'enterprise', goal: undefined },
      form.schema,
    )
    expect(verdict).toEqual({
      ok: false,
      errors: {
        name: 'Please tell us your name.',
        email: 'Please enter an email address such as name@company.com.',
        company: 'Please keep this under 160 characters.',
        teamSize: 'Please choose the size of your team or cohort.',
        goal: 'Please tell us what you want to achieve.',
        plan: 'Please choose one of the plans, or no particular plan.',
      },
    })
  })

  it('holds spam for the honeypot or a submit under 3 s, saying which; without a fill time (no script) nothing is required', () => {
    expect(spamReasonOf(readLeadForm('website=&fillMs='))).toBeNull()
    expect(spamReasonOf(readLeadForm('name=Ada'))).toBeNull()
    expect(spamReasonOf(readLeadForm('website=http%3A%2F%2Fspam.example'))).toBe('honeypot')
    expect(spamReasonOf(readLeadForm('website=http%3A%2F%2Fspam.example&filledBy=webmcp'))).toBe('honeypot')
    expect(spamReasonOf(readLeadForm('fillMs=2999'))).toBe('too-fast')
    expect(spamReasonOf(readLeadForm('fillMs=3000'))).toBeNull()
  })

  it("does not judge a form the browser's agent filled (filledBy=webmcp) by its speed; another filledBy value counts for nothing", () => {
    expect(spamReasonOf(readLeadForm('fillMs=900&filledBy=webmcp'))).toBeNull()
    expect(spamReasonOf(readLeadForm('fillMs=900&filledBy=person'))).toBe('too-fast')
    expect(readLeadForm('fillMs=900&filledBy=webmcp').filling).toEqual({ fillMs: 900, filledBy: 'webmcp' })
    expect(readLeadForm('fillMs=12x&filledBy=').filling).toEqual({ fillMs: null, filledBy: null })
  })

  it.each([
    ['name', 'Ada\u001b[2J'],
    ['name', 'Ada\u202eecalvoL'],
    ['company', 'ACME\u007f'],
    ['company', 'ACME\u009b31m'],
    ['name', 'Ada\tLovelace'],
    ['company', 'Two\nlines'],
    ['goal', 'Clear \u001b[2J the screen'],
    ['goal', 'Isolate \u2066this\u2069'],
  ])('refuses a %s holding a control character or a bidi override (%j) with a message at the field', (field, value) => {
    expect(checkLeadForm({ ...GOOD, [field]: value }, form.schema)).toEqual({
      ok: false,
      errors: { [field]: 'Please remove the invisible control characters (such as text-direction overrides) from this field.' },
    })
  })

  it('keeps the tabs and line breaks of a goal, and right-to-left text without overrides', () => {
    const goal = 'First:\tgrow\r\nSecond: نمو\nThird'
    expect(checkLeadForm({ ...GOOD, goal, name: 'شريف' }, form.schema)).toEqual({ ok: true, fields: { ...GOOD, goal, name: 'شريف', plan: null } })
  })
})

describe('the sales form renderer', () => {
  it('escapes what a visitor typed in values, text areas and messages', () => {
    const html = renderLeadFormSlot(form.view, {
      kind: 'form',
      values: { ...GOOD, name: '"><script>alert(1)</script>', goal: '</textarea><img src=x onerror=alert(1)>' },
      errors: { email: 'Wrong <email>' },
    })
    expect(html).not.toContain('<script>')
    expect(html).not.toContain('<img')
    expect(html).toContain('value="&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;"')
    expect(html).toContain('rows="6">&lt;/textarea&gt;&lt;img src=x onerror=alert(1)&gt;</textarea>')
    expect(html).toContain('<span class="lead-error" id="lead-email-error">Wrong &lt;email&gt;</span>')
  })

  it('carries the time already spent and the agent mark into the form it shows again; the empty form carries none', () => {
    const again = renderLeadFormSlot(form.view, { kind: 'form', values: GOOD, filling: { fillMs: 41_250, filledBy: 'webmcp' } })
    expect(again).toContain('<input type="hidden" name="fillMs" value="41250"><input type="hidden" name="filledBy" value="webmcp">')
    expect(renderLeadFormSlot(form.view, EMPTY_FORM)).toContain(
      '<input type="hidden" name="fillMs" value=""><input type="hidden" name="filledBy" value="">',
    )
  })

  it("puts the filled-in block in the empty block's place in the page, under a CSP whose form-action is 'self'", () => {
    const page = `<html><body><main>${renderLeadFormSlot(form.view, EMPTY_FORM)}<p>after</p></main></body></html>`
    const template = splitAtLeadSlot(page)
    expect(template).toEqual({ before: '<html><body><main>', after: '<p>after</p></main></body></html>' })
    const answer = leadFormPage(form.view, { kind: 'notice', title: 'T', text: 'X' }, 'https://agents.example.com', template ?? undefined)
    expect(answer.html).toContain('<section class="card lead-notice" id="talk-to-sales" aria-labelledby="talk-to-sales-heading" role="alert">')
    expect(answer.headers).toContainEqual([
      'Content-Security-Policy',
      "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; manifest-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'; upgrade-insecure-requests",
    ])
  })
})

describe('the build record', () => {
  it('makes npm start refuse a build whose contact page offers the form where the server has no durable store, and the reverse', () => {
    const content = loadContent(projectRoot)
    const withStore = buildRecordOf(buildSite(parseConfig({ BASE_URL: 'https://agents.example.com' }), content))
    const withoutStore = buildRecordOf(
      buildSite(parseConfig({ BASE_URL: 'https://agents.example.com', VERCEL: '1', VERCEL_ENV: 'preview' }), content),
    )
    expect(describeBuildMismatch(withStore, withoutStore)).toContain(
      'contact form (a durable lead store: Upstash settings, or not on Vercel) is "offered" in the build but "not offered" here',
    )
    const withUpstash = buildRecordOf(
      buildSite(
        parseConfig({ BASE_URL: 'https://agents.example.com', UPSTASH_REDIS_REST_URL: 'https://redis.example', UPSTASH_REDIS_REST_TOKEN: 'token' }),
        content,
      ),
    )
    expect(describeBuildMismatch(withStore, withUpstash)).toBeNull()
  })
})
