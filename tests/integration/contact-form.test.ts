/**
 * The "Talk to sales" form on the built site, on `npm start` and on `next start` (as Next serves the
 * route, as on Vercel), each with a real SQLite file and a loopback webhook receiver: the form on
 * /contact, a good post stored and answered 303, mistakes answered with the page and the form filled
 * in, every refusal with its status and page, spam stored and never delivered, and the thank-you page.
 */
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StoredLead } from '../../lib/leads/lead-archive.ts'
import { openSqliteLeadArchive } from '../../lib/leads/store-sqlite.ts'
import { startSite, type RunningSite } from '../../harness/site-server.ts'

const BASE = 'https://agents.example.com'
const SECRET = `whsec_${Buffer.alloc(32, 7).toString('base64')}`

/** What a browser sends with a post from the contact page. */
const BROWSER_POST = { 'Content-Type': 'application/x-www-form-urlencoded', 'Sec-Fetch-Site': 'same-origin', Origin: BASE }

const GOOD = {
  name: 'Ada Lovelace',
  email: 'ada@analytical.example',
  company: 'Analytical Engines',
  teamSize: '51-250',
  goal: 'Run our spring cohort of 120 mentees on Cadence.',
  topic: 'programme',
  plan: 'programme',
}

/** A name and message that must come back exactly as typed, and be shown escaped. */
const TRICKY_NAME = `O'Brien "Bob" <b>bold</b> & 👩🏽‍💻 شريف`
const LONG_GOAL = `${'Ten kilobytes of goals, "quoted" & <tagged>. '.repeat(227)}مرحبا 🎯`.slice(0, 10_000)

let addressCounter = 0
/** A client of its own per call (an IPv6 /64 of its own), so the limit per client of one test never touches another's. */
const freshAddress = () => `2001:db8:${(++addressCounter).toString(16)}::1`

function formBody(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString()
}

interface Webhook {
  url: string
  events: Array<{ type: string; data: Record<string, unknown> & { attribution?: unknown } }>
  server: Server
}

async function startWebhook(): Promise<Webhook> {
  const events: Webhook['events'] = []
  const server = createServer((request, response) => {
    const chunks: Buffer[] = []
    request.on('data', (chunk: Buffer) => chunks.push(chunk))
    request.on('end', () => {
      events.push(JSON.parse(Buffer.concat(chunks).toString('utf8')))
      response.writeHead(204).end()
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  const port = typeof address === 'object' && address ? address.port : 0
  return { url: `http://127.0.0.1:${port}/hooks/leads`, events, server }
}

/** Waits (bounded) until the condition holds; delivery runs after the answer, so it arrives a moment later. */
async function eventually(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((resolve) => setTimeout(resolve, 100))
}

const SERVERS = ['npm-start', 'next-start'] as const

describe.each(SERVERS)('the contact form on %s', (server) => {
  let site: RunningSite
  let webhook: Webhook
  let dir: string
  let database: string

  const post = (body: string, headers: Record<string, string> = {}, address = freshAddress()) =>
    site.fetch('/contact/send', { method: 'POST', redirect: 'manual', headers: { ...BROWSER_POST, 'X-Forwarded-For': address, ...headers }, body })

  async function storedLeads(): Promise<StoredLead[]> {
    const archive = openSqliteLeadArchive(database, ['webhook'])
    try {
      return await archive.list()
    } finally {
      await archive.close()
    }
  }

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'contact-form-'))
    database = path.join(dir, 'leads.sqlite')
    webhook = await startWebhook()
    site = await startSite(
      { LEADS_DATABASE_PATH: database, LEADS_WEBHOOK_URL: webhook.url, LEADS_WEBHOOK_SECRET: SECRET, TRUST_PROXY: '127.0.0.1' },
      { server },
    )
  })

  afterAll(async () => {
    await site?.stop()
    webhook?.server.close()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('shows the form on /contact as a declarative WebMCP tool without toolautosubmit, its constraints from the schema, under form-action self', async () => {
    const response = await site.fetch('/contact')
    expect(response.status).toBe(200)
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self';")
    const html = await response.text()
    expect(html).toContain(
      '<form class="card lead-form" id="talk-to-sales" toolname="talk_to_sales" tooldescription="Asks the sales team to get in touch:',
    )
    expect(html).toContain('aria-labelledby="talk-to-sales-heading" action="/contact/send" method="post">')
    expect(html).not.toContain('toolautosubmit')
    expect(html).toContain(
      '<input id="lead-email" required="" aria-describedby="lead-email-help" toolparamdescription="The visitor&#x27;s work email address, where the answer goes." type="email" maxLength="254" autoComplete="email" name="email" value=""/>',
    )
    expect(html).toContain('<textarea id="lead-goal" name="goal" required="" aria-describedby="lead-goal-help"')
    expect(html).toContain('maxLength="10000" rows="6"></textarea>')
    expect(html).toContain(
      '<select id="lead-plan" name="plan" toolparamdescription="The plan the visitor asks about, if any (empty for no particular plan)."><option value="" selected="">No particular plan</option><option value="personal">Personal</option><option value="team">Team</option><option value="programme">Programme</option></select>',
    )
    expect(html).toContain('delete it after 180 days.')
    // The email card stays beside the form.
    expect(html).toContain('<section class="card" id="contact-email" aria-labelledby="contact-email-heading">')
  })

  it("links the Programme plan's Talk to us to the form with the plan named", async () => {
    const html = await (await site.fetch('/pricing')).text()
    expect(html).toContain('<a class="button" href="/contact?plan=programme#talk-to-sales">Talk to us</a>')
  })

  it('stores a good post exactly as typed before answering 303 to the thank-you page, then delivers it', async () => {
    const fields = { ...GOOD, name: TRICKY_NAME, email: 'obrien@example.org', goal: LONG_GOAL }
    const response = await post(formBody({ ...fields, website: '', fillMs: '' }))
    expect(response.status).toBe(303)
    expect(response.headers.get('location')).toBe('/contact/thanks')
    expect(response.headers.get('cache-control')).toBe('no-store')
    const lead = (await storedLeads()).find((candidate) => candidate.fields.email === 'obrien@example.org')
    expect(lead?.fields).toEqual({ ...fields, plan: 'programme' })
    expect(lead?.spamReason).toBeNull()
    expect(lead?.sourcePage).toBe('/contact')
    expect(lead?.addressHash).toMatch(/^[0-9a-f]{64}$/)
    await eventually(() => webhook.events.some((event) => event.data.email === 'obrien@example.org'))
    const event = webhook.events.find((candidate) => candidate.data.email === 'obrien@example.org')
    expect(event?.data.name).toBe(TRICKY_NAME)
    expect(event?.data.goal).toBe(LONG_GOAL)
  })

  it('answers a mistake with 422 and the contact page, the typed values escaped and a message beside each wrong field', async () => {
    const response = await post(formBody({ ...GOOD, name: TRICKY_NAME, email: 'ada@localhost', company: '   ', topic: 'nothing' }))
    expect(response.status).toBe(422)
    expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8')
    expect(response.headers.get('cache-control')).toBe('no-store')
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self';")
    const html = await response.text()
    expect(html).toContain('<h1>Contact</h1>')
    expect(html).toContain('<p class="lead-summary" role="alert">3 fields need another look; the messages are beside them.</p>')
    expect(html).toContain('value="O&#x27;Brien &quot;Bob&quot; &lt;b&gt;bold&lt;/b&gt; &amp; 👩🏽‍💻 شريف"')
    expect(html).not.toContain('<b>bold</b>')
    expect(html).toContain('<span class="lead-error" id="lead-email-error">Please enter an email address such as name@company.com.</span>')
    expect(html).toContain('value="ada@localhost"')
    expect(html).toContain('<span class="lead-error" id="lead-company-error">Please tell us your company or organisation.</span>')
    expect(html).toContain('<span class="lead-error" id="lead-topic-error">Please choose a topic.</span>')
    expect(html).toContain('<option value="51-250" selected="">51 to 250 people</option>')
    expect(html).not.toContain('lead-name-error')
    expect((await storedLeads()).some((lead) => lead.fields.email === 'ada@localhost')).toBe(false)
  })

  it("answers a mistake with the page it was sent from: its body is the prerendered contact page's, but for the form (Next's markers aside)", async () => {
    // What Next adds to a prerendered body that React's own renderer does not: comment markers, and an empty hidden div for them.
    const bodyOutsideTheForm = (html: string) =>
      html
        .slice(html.indexOf('<body'), html.indexOf('</body>'))
        .replace(/<form class="card lead-form".*?<\/form>/s, '<form/>')
        .replace(/<!--.*?-->/g, '')
        .replace('<div hidden=""></div>', '')
    const page = await (await site.fetch('/contact')).text()
    const answer = await (await post(formBody({ ...GOOD, email: 'ada@localhost' }))).text()
    expect(bodyOutsideTheForm(answer)).toBe(bodyOutsideTheForm(page))
    expect(answer).toContain('<title>Contact · Cadence</title>')
  })

  it('rejects a plan that is not one of the pricing plans with a message at the plan', async () => {
    const response = await post(formBody({ ...GOOD, plan: 'enterprise' }))
    expect(response.status).toBe(422)
    expect(await response.text()).toContain(
      '<span class="lead-error" id="lead-plan-error">Please choose one of the plans, or no particular plan.</span>',
    )
  })

  it('answers other methods 405 with Allow: POST', async () => {
    const response = await site.fetch('/contact/send')
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('POST')
    expect(await response.text()).toContain('This address takes the contact form only')
  })

  it('answers a post that is not a form 415 with Accept-Post', async () => {
    const response = await post(JSON.stringify(GOOD), { 'Content-Type': 'application/json' })
    expect(response.status).toBe(415)
    expect(response.headers.get('accept-post')).toBe('application/x-www-form-urlencoded')
    expect(await response.text()).toContain('The form arrived in a format we do not read')
  })

  it('answers a body over the limit 413', async () => {
    const response = await post(formBody({ ...GOOD, goal: 'x'.repeat(200 * 1024) }))
    expect(response.status).toBe(413)
    expect(await response.text()).toContain('Your message is too long for the form')
  })

  it('answers a cross-site post 403, by Sec-Fetch-Site and by Origin', async () => {
    const bySite = await post(formBody(GOOD), { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' })
    expect(bySite.status).toBe(403)
    expect(await bySite.text()).toContain('This form was sent from another site')
    const headers = new Headers({
      'Content-Type': 'application/x-www-form-urlencoded',
      Origin: 'https://evil.example',
      'X-Forwarded-For': freshAddress(),
    })
    const byOrigin = await site.fetch('/contact/send', { method: 'POST', redirect: 'manual', headers, body: formBody(GOOD) })
    expect(byOrigin.status).toBe(403)
  })

  it('answers the sixth post from one address within ten minutes 429 with Retry-After, keeping what was typed', async () => {
    const address = freshAddress()
    for (let i = 0; i < 5; i++) {
      const response = await post(formBody({ ...GOOD, email: `limit${i}-${server}@example.org` }), {}, address)
      expect(response.status).toBe(303)
    }
    const refused = await post(formBody({ ...GOOD, email: 'sixth@example.org' }), {}, address)
    expect(refused.status).toBe(429)
    const retryAfter = Number(refused.headers.get('retry-after'))
    expect(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 120).toBe(true)
    const html = await refused.text()
    expect(html).toContain('You have sent this form several times in a short while. Nothing was sent this time: please try again in')
    expect(html).toContain('value="sixth@example.org"')
    expect((await storedLeads()).some((lead) => lead.fields.email === 'sixth@example.org')).toBe(false)
  })

  it('stores suspected spam (honeypot, or sent faster than a person types) with its reason, thanks it like any lead and never delivers it', async () => {
    const trap = await post(formBody({ ...GOOD, email: `trap-${server}@example.org`, website: 'https://spam.example' }))
    expect(trap.status).toBe(303)
    expect(trap.headers.get('location')).toBe('/contact/thanks')
    const fast = await post(formBody({ ...GOOD, email: `fast-${server}@example.org`, fillMs: '400' }))
    expect(fast.status).toBe(303)
    const good = await post(formBody({ ...GOOD, email: `slow-${server}@example.org`, fillMs: '45000' }))
    expect(good.status).toBe(303)
    const leads = await storedLeads()
    const spamOf = (email: string) => leads.find((lead) => lead.fields.email === email)?.spamReason
    expect(spamOf(`trap-${server}@example.org`)).toBe('honeypot')
    expect(spamOf(`fast-${server}@example.org`)).toBe('too-fast')
    expect(spamOf(`slow-${server}@example.org`)).toBeNull()
    // The good one is delivered; once it is, the spam sent before it would have been too.
    await eventually(() => webhook.events.some((event) => event.data.email === `slow-${server}@example.org`))
    expect(webhook.events.map((event) => event.data.email)).toContain(`slow-${server}@example.org`)
    expect(webhook.events.map((event) => event.data.email)).not.toContain(`trap-${server}@example.org`)
    expect(webhook.events.map((event) => event.data.email)).not.toContain(`fast-${server}@example.org`)
  })

  it('shows the form again after a mistake carrying the time already spent filling it, and the correction sent at once is a lead, delivered', async () => {
    const email = `jane-${server}@acme.example`
    const refused = await post(formBody({ ...GOOD, email: `jane-${server}@acme`, fillMs: '38000' }))
    expect(refused.status).toBe(422)
    expect(await refused.text()).toContain('<input type="hidden" name="fillMs" value="38000"/><input type="hidden" name="filledBy" value=""/>')
    // The page script adds the 1.5 s of the correction to what the form carried.
    const corrected = await post(formBody({ ...GOOD, email, fillMs: '39500' }))
    expect(corrected.status).toBe(303)
    expect((await storedLeads()).find((lead) => lead.fields.email === email)?.spamReason).toBeNull()
    await eventually(() => webhook.events.some((event) => event.data.email === email))
    expect(webhook.events.filter((event) => event.data.email === email)).toHaveLength(1)
  })

  it('keeps where the visit came from, as the page script carries it, and sends it in the webhook event', async () => {
    const email = `campaign-${server}@example.org`
    const source = {
      utm_source: 'newsletter',
      utm_medium: 'email',
      utm_campaign: 'spring-2027',
      landingPage: '/pricing',
      referrer: 'https://news.example',
    }
    expect((await post(formBody({ ...GOOD, email, fillMs: '30000', ...source }))).status).toBe(303)
    const attribution = {
      utmSource: 'newsletter',
      utmMedium: 'email',
      utmCampaign: 'spring-2027',
      utmTerm: null,
      utmContent: null,
      landingPage: '/pricing',
      referrerOrigin: 'https://news.example',
      viaWebMcp: false,
    }
    expect((await storedLeads()).find((lead) => lead.fields.email === email)?.attribution).toEqual(attribution)
    await eventually(() => webhook.events.some((event) => event.data.email === email))
    expect(webhook.events.find((event) => event.data.email === email)?.data.attribution).toEqual(attribution)
  })

  it("without the page script, keeps the campaign of the contact page's own URL, read from the post's Referer, and carries it into a form shown again", async () => {
    const email = `referer-${server}@example.org`
    const referer = { Referer: `${BASE}/contact?plan=programme&utm_source=partner&utm_campaign=q1-webinar` }
    const refused = await post(formBody({ ...GOOD, email: `referer-${server}@example` }), referer)
    expect(refused.status).toBe(422)
    const html = await refused.text()
    expect(html).toContain('<input type="hidden" name="utm_source" value="partner"/>')
    expect(html).toContain('<input type="hidden" name="landingPage" value="/contact"/>')
    // Sent again from the page the 422 showed: its Referer is /contact/send, the campaign comes in the form.
    const again = await post(formBody({ ...GOOD, email, utm_source: 'partner', utm_campaign: 'q1-webinar', landingPage: '/contact' }), {
      Referer: `${BASE}/contact/send`,
    })
    expect(again.status).toBe(303)
    expect((await storedLeads()).find((lead) => lead.fields.email === email)?.attribution).toMatchObject({
      utmSource: 'partner',
      utmCampaign: 'q1-webinar',
      landingPage: '/contact',
      referrerOrigin: null,
    })
  })

  it("stores a form the browser's agent filled (filledBy=webmcp) and the visitor sent a second later as a lead, delivered", async () => {
    const email = `agent-filled-${server}@example.org`
    const response = await post(formBody({ ...GOOD, email, fillMs: '1100', filledBy: 'webmcp' }))
    expect(response.status).toBe(303)
    const lead = (await storedLeads()).find((candidate) => candidate.fields.email === email)
    expect([lead?.spamReason, lead?.attribution.viaWebMcp]).toEqual([null, true])
    await eventually(() => webhook.events.some((event) => event.data.email === email))
    expect(webhook.events.filter((event) => event.data.email === email)).toHaveLength(1)
  })

  it('never takes a person for a repeat of spam: the same email and message after a too-fast post is a lead of its own, delivered', async () => {
    const email = `repeat-${server}@example.org`
    expect((await post(formBody({ ...GOOD, email, fillMs: '700' }))).status).toBe(303)
    expect((await post(formBody({ ...GOOD, email, fillMs: '52000' }))).status).toBe(303)
    const leads = (await storedLeads()).filter((lead) => lead.fields.email === email)
    expect(leads.map((lead) => lead.spamReason)).toEqual(['too-fast', null])
    await eventually(() => webhook.events.some((event) => event.data.email === email))
    expect(webhook.events.filter((event) => event.data.email === email).map((event) => event.data.id)).toEqual([leads[1]?.id])
  })

  it('refuses a name with a terminal escape or a right-to-left override with 422 and a message at the field, storing nothing', async () => {
    for (const name of ['Eve \u001b[2J', 'Eve \u202egro.live']) {
      const response = await post(formBody({ ...GOOD, name, email: `controls-${server}@example.org` }))
      expect(response.status).toBe(422)
      expect(await response.text()).toContain(
        '<span class="lead-error" id="lead-name-error">Please remove the invisible control characters (such as text-direction overrides) from this field.</span>',
      )
    }
    expect((await storedLeads()).some((lead) => lead.fields.email === `controls-${server}@example.org`)).toBe(false)
  })

  it('counts the addresses of one IPv6 /64 as one client: the sixth post, from a sixth address of that /64, is answered 429', async () => {
    const network = `2001:db8:ff${SERVERS.indexOf(server)}0:1`
    for (let i = 1; i <= 5; i++) {
      expect((await post(formBody({ ...GOOD, email: `net${i}-${server}@example.org` }), {}, `${network}::${i}`)).status).toBe(303)
    }
    expect((await post(formBody({ ...GOOD, email: `net6-${server}@example.org` }), {}, `${network}:ffff:ffff:ffff:6`)).status).toBe(429)
    expect((await post(formBody({ ...GOOD, email: `net7-${server}@example.org` }), {}, `2001:db8:ff${SERVERS.indexOf(server)}0:2::1`)).status).toBe(
      303,
    )
  })

  it('serves the thank-you page prerendered with noindex, and names it in no sitemap or index', async () => {
    const response = await site.fetch('/contact/thanks')
    expect(response.status).toBe(200)
    expect(response.headers.get('x-robots-tag')).toBe('noindex')
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate, s-maxage=86400')
    expect(response.headers.get('content-security-policy')).toContain("form-action 'self';")
    const html = await response.text()
    expect(html).toContain('<meta name="robots" content="noindex, follow"/>')
    expect(html).toContain('<h1>Thank you</h1>')
    for (const index of ['/sitemap.xml', '/sitemap.md', '/llms.txt']) {
      expect(await (await site.fetch(index)).text()).not.toContain('/contact/thanks')
    }
  })

  it("says at its start, on next start only, that the form's limit and the agent quota trust a client's X-Forwarded-For", () => {
    const warning =
      "[quota] [leads] Warning: not started through `npm start`: client addresses come from the X-Forwarded-For header, which a client can write itself, so the agent quota and the contact form's limit per client trust it."
    expect(site.output().includes(warning)).toBe(server === 'next-start')
  })

  it("leaves no field of a lead in the server's output (logs carry outcomes only)", () => {
    const output = site.output()
    for (const typed of [TRICKY_NAME, 'obrien@example.org', 'Analytical Engines', 'Run our spring cohort', 'https://spam.example']) {
      expect(output).not.toContain(typed)
    }
  })

  it('tells agents in the Markdown twin that the form is for people in a browser, and points them at the email address', async () => {
    const markdown = await (await site.fetch('/contact.md')).text()
    expect(markdown).toContain('## Talk to sales')
    expect(markdown).toContain(
      'Only the visitor sends it: an agent in their browser may fill it in for them to confirm; any other agent, write to [hello@cadence.example](mailto:hello@cadence.example) instead.',
    )
  })
})

describe('a flood of the contact form on npm start', () => {
  let site: RunningSite
  let dir: string

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'contact-flood-'))
    site = await startSite({ LEADS_DATABASE_PATH: path.join(dir, 'leads.sqlite'), TRUST_PROXY: '127.0.0.1' })
  })

  afterAll(async () => {
    await site?.stop()
    if (dir) rmSync(dir, { recursive: true, force: true })
  })

  it('answers 1,000 posts from 1,000 addresses without a 5xx and stores every one', async () => {
    const statuses = new Map<number, number>()
    let next = 0
    const worker = async () => {
      while (next < 1000) {
        const i = next++
        const response = await site.fetch('/contact/send', {
          method: 'POST',
          redirect: 'manual',
          headers: { ...BROWSER_POST, 'X-Forwarded-For': `10.${(i >> 8) & 255}.${i & 255}.7` },
          body: formBody({ ...GOOD, email: `flood${i}@example.org` }),
        })
        await response.arrayBuffer()
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1)
      }
    }
    await Promise.all(Array.from({ length: 16 }, worker))
    expect(Object.fromEntries(statuses)).toEqual({ 303: 1000 })
    const archive = openSqliteLeadArchive(path.join(dir, 'leads.sqlite'), [])
    try {
      expect((await archive.list()).length).toBe(1000)
    } finally {
      await archive.close()
    }
  }, 180_000)
})

describe('the contact page where leads cannot be kept (a Vercel preview without Upstash)', () => {
  let site: RunningSite

  beforeAll(async () => {
    site = await startSite({}, { build: 'preview' })
  })

  afterAll(async () => {
    await site?.stop()
  })

  it('offers the email card only, and the Programme plan links to the contact page without the form', async () => {
    const html = await (await site.fetch('/contact')).text()
    expect(html).not.toContain('<form class="card lead-form"')
    expect(html).toContain('<div class="handoff"><section class="card" id="contact-email" aria-labelledby="contact-email-heading">')
    expect(html).toContain('<a class="button" href="mailto:hello@cadence.example">hello@cadence.example</a>')
    expect(await (await site.fetch('/pricing')).text()).toContain('<a class="button" href="/contact">Talk to us</a>')
    expect(await (await site.fetch('/contact.md')).text()).not.toContain('## Talk to sales')
  })

  it('answers a post 503 with the contact page pointing to the email address', async () => {
    const response = await site.fetch('/contact/send', { method: 'POST', redirect: 'manual', headers: BROWSER_POST, body: formBody(GOOD) })
    expect(response.status).toBe(503)
    const html = await response.text()
    expect(html).toContain('<h2 id="talk-to-sales-heading">Please write to us by email</h2>')
    expect(html).toContain('<p>The form is not available on this deployment; please write to us by email instead.</p>')
    expect(html).toContain('<p><a class="button" href="mailto:hello@cadence.example">hello@cadence.example</a></p>')
  })
})
