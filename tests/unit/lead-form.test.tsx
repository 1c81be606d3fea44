/**
 * The sales form's one statement of its fields: the HTML constraints read from the zod schema the
 * server checks, the server's verdict (values kept exactly as typed), the spam marks, and the one
 * renderer (the page's React components) escaping whatever a visitor typed.
 */
import { renderToStaticMarkup } from 'react-dom/server'
import { describe, expect, it, vi } from 'vitest'
import { renderContactAnswer } from '../../app/_components/contact-answer.tsx'
import { LeadFormBlock } from '../../app/_components/lead-form.tsx'
import { buildRecordOf, describeBuildMismatch } from '../../lib/build-record.ts'
import { checkLeadForm, fieldControls, leadAttribution, readLeadForm, sourceFromReferer, spamReasonOf } from '../../lib/leads/form-fields.ts'
import { EMPTY_FORM, type LeadFormState } from '../../lib/leads/form-view.ts'
import { buildLeadForm } from '../../lib/leads/form.ts'
import { loadContent } from '../../lib/content/parse.ts'
import { parseConfig } from '../../lib/env.ts'
import { buildSite } from '../../lib/site-model.ts'
import { projectRoot } from '../../harness/paths.ts'

const form = buildLeadForm(buildSite(parseConfig({ BASE_URL: 'https://agents.example.com' }), loadContent(projectRoot)))
const NO_CAMPAIGN = { utm_source: null, utm_medium: null, utm_campaign: null, utm_term: null, utm_content: null }
const NO_SOURCE = {
  utmSource: null,
  utmMedium: null,
  utmCampaign: null,
  utmTerm: null,
  utmContent: null,
  landingPage: null,
  referrerOrigin: null,
  viaWebMcp: false,
}

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

describe('where a lead came from', () => {
  const SITE = ['https://agents.example.com', 'http://127.0.0.1:3000']
  const post = (query: string) => readLeadForm(`name=Ada&${query}`)

  it('keeps the campaign, landing page and referring origin a post carries, each checked; an agent-filled form says so', () => {
    const submitted = post(
      'utm_source=newsletter&utm_medium=email&utm_campaign=spring+%2727&utm_content=hero&landingPage=%2Fpricing&referrer=https%3A%2F%2Fnews.example%2Fissue%2F12%3Fid%3D7&filledBy=webmcp',
    )
    expect(leadAttribution(submitted, null)).toEqual({
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: "spring '27",
      utmTerm: null,
      utmContent: 'hero',
      landingPage: '/pricing',
      referrerOrigin: 'https://news.example',
      viaWebMcp: true,
    })
  })

  it('drops what a link could carry but should not: a value too long or with a control character, another host as the landing page, a query in it, a referrer that is no http(s) URL', () => {
    const submitted = post(
      `utm_source=${'x'.repeat(201)}&utm_medium=a%1B%5B2J&utm_campaign=&landingPage=%2F%2Fevil.example%2Fx&referrer=javascript%3Aalert(1)`,
    )
    expect(leadAttribution(submitted, null)).toEqual({ ...NO_SOURCE, landingPage: null })
    expect(leadAttribution(post('landingPage=%2Fpricing%3Femail%3Da%40b.example'), null).landingPage).toBeNull()
    expect(leadAttribution(post('landingPage=relative'), null).landingPage).toBeNull()
  })

  it("without the page script, reads the campaign and path of the contact page's own URL from the Referer, and only from this site", () => {
    const fromReferer = sourceFromReferer('https://agents.example.com/contact?plan=programme&utm_source=partner&utm_campaign=q1', SITE)
    expect(leadAttribution(post(''), fromReferer)).toEqual({
      ...NO_SOURCE,
      utmSource: 'partner',
      utmCampaign: 'q1',
      landingPage: '/contact',
    })
    expect(sourceFromReferer('https://evil.example/contact?utm_source=x', SITE)).toBeNull()
    expect(sourceFromReferer('not a url', SITE)).toBeNull()
    // What the post carries wins over the Referer: the script knows where the visit began.
    expect(leadAttribution(post('landingPage=%2Fpricing&utm_source=newsletter'), fromReferer)).toMatchObject({
      utmSource: 'newsletter',
      landingPage: '/pricing',
    })
  })
})

describe('the sales form renderer', () => {
  const render = (state: LeadFormState) => renderToStaticMarkup(<LeadFormBlock form={form.view} state={state} />)

  it('escapes what a visitor typed in values, text areas and messages', () => {
    const html = render({
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

  it('carries where the visit came from into the form it shows again, as hidden fields', () => {
    const source = {
      campaign: { ...NO_CAMPAIGN, utm_source: 'newsletter', utm_campaign: 'spring "27"' },
      landingPage: '/pricing',
      referrerOrigin: 'https://news.example',
    }
    const html = render({ kind: 'form', values: GOOD, source })
    expect(html).toContain(
      '<input type="hidden" name="utm_source" value="newsletter"/><input type="hidden" name="utm_medium" value=""/>' +
        '<input type="hidden" name="utm_campaign" value="spring &quot;27&quot;"/><input type="hidden" name="utm_term" value=""/>' +
        '<input type="hidden" name="utm_content" value=""/><input type="hidden" name="landingPage" value="/pricing"/>' +
        '<input type="hidden" name="referrer" value="https://news.example"/>',
    )
  })

  it('carries the time already spent and the agent mark into the form it shows again; the empty form carries none', () => {
    const again = render({ kind: 'form', values: GOOD, filling: { fillMs: 41_250, filledBy: 'webmcp' } })
    expect(again).toContain('<input type="hidden" name="fillMs" value="41250"/><input type="hidden" name="filledBy" value="webmcp"/>')
    expect(render(EMPTY_FORM)).toContain('<input type="hidden" name="fillMs" value=""/><input type="hidden" name="filledBy" value=""/>')
  })

  it("shows a notice in the form's place, pointing to the email address", () => {
    expect(render({ kind: 'notice', title: 'T <i>', text: 'X & Y' })).toBe(
      '<section class="card lead-notice" id="talk-to-sales" aria-labelledby="talk-to-sales-heading" role="alert"><h2 id="talk-to-sales-heading">T &lt;i&gt;</h2>' +
        '<p>X &amp; Y</p><p><a class="button" href="mailto:hello@cadence.example">hello@cadence.example</a></p></section>',
    )
  })

  it('answers with the whole contact page, rendered by its components, the form filled in: one document, its title, noindex', async () => {
    // The deployment's own settings, as a server has them (Vite sets BASE_URL=/ for the test run).
    vi.stubEnv('BASE_URL', 'https://agents.example.com')
    const html = await renderContactAnswer({ kind: 'form', values: GOOD, errors: { email: 'Please check it.' } })
    expect(html.startsWith('<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>')).toBe(true)
    expect(html).toContain('<title>Contact · Cadence</title>')
    expect(html).toContain('<meta name="robots" content="noindex"/>')
    expect(html).toContain('<h1>Contact</h1>')
    expect(html).toContain('<span class="lead-error" id="lead-email-error">Please check it.</span>')
    expect(html).toContain('<section class="card" id="contact-email" aria-labelledby="contact-email-heading">')
    expect(html.match(/<form /g)).toHaveLength(1)
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
