import AxeBuilder from '@axe-core/playwright'
import { expect, test, type Page } from '@playwright/test'
import { E2E_APP_URL as APP, E2E_BASE_URL as BASE, E2E_ORIGIN as ORIGIN } from '../support/e2e-site.ts'

const PAGES = [
  { path: '/', title: 'Cadence — goals that get done, with a mentor in the loop', h1: 'Cadence', current: '/' },
  { path: '/pricing', title: 'Pricing · Cadence', h1: 'Pricing', current: '/pricing' },
  { path: '/contact', title: 'Contact · Cadence', h1: 'Contact', current: '/contact' },
  { path: '/login', title: 'Log in · Cadence', h1: 'Log in', current: '/login' },
  { path: '/developers', title: 'Developers · Cadence', h1: 'Cadence developer index', current: '/developers' },
] as const

// Links between the site's own pages are root-relative; canonical URLs are absolute under BASE.
const HEADER_LINKS = [
  ['Pricing', '/pricing'],
  ['Contact', '/contact'],
  ['Log in', '/login'],
  ['Developers', '/developers'],
]

const FOOTER_LINKS = [
  ['Home', '/'],
  ['Pricing', '/pricing'],
  ['Contact', '/contact'],
  ['Log in', '/login'],
  ['Developer index', '/developers'],
  ['OpenAPI description', '/openapi.json'],
  ['MCP server card', '/.well-known/mcp/server-card.json'],
  ['llms.txt', '/llms.txt'],
]

async function linksOf(page: Page, selector: string): Promise<string[][]> {
  return await page
    .locator(`${selector} a`)
    .evaluateAll((anchors) => anchors.map((anchor) => [anchor.textContent ?? '', anchor.getAttribute('href') ?? '']))
}

test.describe('every page', () => {
  for (const { path, title, h1 } of PAGES) {
    test(`${path}: title, description, heading, header and footer links`, async ({ page }) => {
      const response = await page.goto(path)
      expect(response?.status()).toBe(200)
      expect(response?.headers()['content-type']).toBe('text/html; charset=utf-8')
      await expect(page).toHaveTitle(title)
      await expect(page.locator('h1')).toHaveCount(1)
      await expect(page.locator('h1')).toHaveText(h1)
      await expect(page.locator('link[rel="canonical"]')).toHaveAttribute('href', `${BASE}${path}`)
      await expect(page.locator('link[rel="alternate"][type="text/markdown"]')).toHaveAttribute('href', `${BASE}${path === '/' ? '/index' : path}.md`)
      await expect(page.locator('meta[name="robots"]')).toHaveCount(0)
      expect(await linksOf(page, 'header.site-header nav')).toEqual(HEADER_LINKS)
      expect(await linksOf(page, 'footer.site-footer nav')).toEqual(FOOTER_LINKS)
      await expect(page.locator('link[rel="stylesheet"][href="/site.css"]')).toHaveCount(1)
      await expect(page.locator('main#main')).toHaveCount(1)
    })
  }

  test('meta descriptions come from the frontmatter', async ({ page }) => {
    const expected: Record<string, string> = {
      '/': 'Cadence turns an ambitious goal into a weekly plan, keeps you moving with short check-ins, and brings a mentor in the moment you are stuck.',
      '/pricing': 'Cadence is free for individuals. Teams and mentoring programmes pay per active member.',
      '/contact': 'Reach the Cadence team about programmes, partnerships, security or the agent API.',
      '/login': 'Log in to the Cadence app or create a free account. The public agent API needs no login.',
    }
    for (const [path, description] of Object.entries(expected)) {
      await page.goto(path)
      await expect(page.locator('meta[name="description"]')).toHaveAttribute('content', description)
    }
  })

  test('the header marks the current page', async ({ page }) => {
    for (const { path, current } of PAGES) {
      await page.goto(path)
      const currentLinks = await page.locator('header a[aria-current="page"]').evaluateAll((anchors) => anchors.map((a) => a.getAttribute('href')))
      expect(currentLinks).toEqual(current === '/' ? [] : [current])
    }
  })

  test('every page has the same header and footer markup', async ({ page }) => {
    const chrome = async (path: string) => {
      await page.goto(path)
      return await page.evaluate(() => {
        const strip = (element: Element | null) => {
          const clone = element?.cloneNode(true) as Element
          for (const node of clone.querySelectorAll('[aria-current]')) node.removeAttribute('aria-current')
          return clone.outerHTML
        }
        return {
          skip: document.querySelector('body > a.skip-link')?.outerHTML,
          header: strip(document.querySelector('header.site-header')),
          footer: strip(document.querySelector('footer.site-footer')),
        }
      })
    }
    const home = await chrome('/')
    expect(home.skip).toBe('<a class="skip-link" href="#main">Skip to main content</a>')
    for (const path of ['/pricing', '/contact', '/login']) expect(await chrome(path), path).toEqual(home)
  })
})

test.describe('homepage', () => {
  test('shows the product, the execution loop and the entry points', async ({ page }) => {
    await page.goto('/')
    await expect(page.locator('.hero-tagline')).toHaveText('Goals that get done, with a mentor in the loop.')
    await expect(page.getByRole('heading', { level: 2 })).toHaveText([
      'How it works',
      'For mentors and programmes',
      'Start',
      'For developers and AI agents',
      'Start with a plan',
      'Product',
      'Developers and agents',
    ])
    await expect(page.locator('main ol > li')).toHaveCount(6)
    await expect(page.locator('main ol > li').first()).toHaveText('Commit to a goal. Write the outcome you want and the date it matters by.')
    expect(await linksOf(page, 'main')).toEqual([
      ['Start free', `${APP}/signup?plan=personal`],
      ['See pricing', '/pricing'],
      ['See pricing', '/pricing'],
      ['Log in or create an account', '/login'],
      ['Talk to us', '/contact'],
      ['Developer index', '/developers'],
      ['OpenAPI description', '/openapi.json'],
      ['MCP server card', '/.well-known/mcp/server-card.json'],
      ['llms.txt', '/llms.txt'],
    ])
    await expect(page.locator('main code')).toHaveText(`${BASE}/mcp`)
  })

  test('links lead to the pages, and the pages back home', async ({ page }) => {
    await page.goto('/')
    await page.locator('main .band').getByRole('link', { name: 'See pricing' }).click()
    await expect(page).toHaveURL(`${ORIGIN}/pricing`)
    await expect(page.locator('h1')).toHaveText('Pricing')

    await page.locator('header').getByRole('link', { name: 'Contact' }).click()
    await expect(page).toHaveURL(`${ORIGIN}/contact`)
    await expect(page.locator('h1')).toHaveText('Contact')

    await page.locator('header').getByRole('link', { name: 'Log in' }).click()
    await expect(page).toHaveURL(`${ORIGIN}/login`)
    await expect(page.locator('h1')).toHaveText('Log in')

    await page.locator('header').getByRole('link', { name: 'Cadence' }).click()
    await expect(page).toHaveURL(`${ORIGIN}/`)
    await expect(page.locator('h1')).toHaveText('Cadence')
  })
})

test.describe('pricing', () => {
  const PLANS = [
    {
      name: 'Personal',
      price: '$0',
      note: 'Free forever',
      summary: 'One person, one mentor, every part of the execution loop.',
      features: ['Up to 3 active goals', 'Weekly plans and check-ins', 'One mentor room with one mentor'],
      cta: ['Start free', `${APP}/signup?plan=personal`],
    },
    {
      name: 'Team',
      price: '$12',
      note: 'per active member, per month',
      summary: 'Small teams that set goals together and mentor each other.',
      features: ['Unlimited goals', 'Shared mentor rooms with several mentors', 'Team progress view for leads'],
      cta: ['Start a team', `${APP}/signup?plan=team`],
    },
    {
      name: 'Programme',
      price: 'Custom',
      note: 'Priced per cohort',
      summary: 'Bootcamps, accelerators and academies running many mentees at once.',
      features: ['Cohorts and mentor rotations', 'Blocker triage across the whole cohort', 'Single sign-on and data export'],
      cta: ['Talk to us', '/contact?plan=programme#talk-to-sales'],
    },
  ]

  test('renders every plan from content/pages/pricing.md', async ({ page }) => {
    await page.goto('/pricing')
    const plans = page.getByRole('list', { name: 'Plans' }).locator(':scope > li')
    await expect(plans).toHaveCount(PLANS.length)
    for (const [index, plan] of PLANS.entries()) {
      const card = plans.nth(index)
      await expect(card.getByRole('heading', { level: 2 })).toHaveText(plan.name)
      await expect(card.locator('.price')).toHaveText(plan.price)
      await expect(card.locator('.price-note')).toHaveText(plan.note)
      await expect(card.locator('.plan-summary')).toHaveText(plan.summary)
      await expect(card.locator('.plan-features li')).toHaveText(plan.features)
      expect(await linksOf(page, `#plan-${plan.name.toLowerCase()}`)).toEqual([plan.cta])
    }
    await expect(page.getByText('Prices are in US dollars and exclude tax.')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'Questions' })).toBeVisible()
  })

  test('a signup plan opens the app’s sign-up with that plan chosen', async ({ page }) => {
    await page.route(`${APP}/**`, (route) => route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Sign up</title>' }))
    await page.goto('/pricing')
    await page.getByRole('link', { name: 'Start a team' }).click()
    await expect(page).toHaveURL(`${APP}/signup?plan=team`)
  })

  test("the contact plan leads to the contact page's sales form with the plan chosen", async ({ page }) => {
    await page.goto('/pricing')
    await page.getByRole('link', { name: 'Talk to us' }).click()
    await expect(page).toHaveURL(`${ORIGIN}/contact?plan=programme#talk-to-sales`)
    await expect(page.getByLabel('Plan (optional)')).toHaveValue('programme')
  })
})

test.describe('contact', () => {
  test('gives the email address as a mailto link and the response time, beside the sales form, the only form', async ({ page }) => {
    await page.goto('/contact')
    await expect(page.getByRole('heading', { name: 'Email us' })).toBeVisible()
    const email = page.getByRole('link', { name: 'hello@cadence.example' })
    await expect(email).toHaveAttribute('href', 'mailto:hello@cadence.example')
    await expect(page.getByText('We answer within one business day.')).toBeVisible()
    await expect(page.getByRole('heading', { name: 'What to include' })).toBeVisible()
    await expect(page.locator('form')).toHaveCount(1)
    await expect(page.locator('form')).toHaveAttribute('action', '/contact/send')
    await expect(page.locator('form')).toHaveAttribute('method', 'post')
  })
})

test.describe('login', () => {
  test('hands off to the product app at APP_URL, with no credentials asked here', async ({ page }) => {
    await page.goto('/login')
    await expect(page.getByRole('link', { name: 'Log in to Cadence' })).toHaveAttribute('href', `${APP}/login`)
    const createAccount = page.locator('section#create-account')
    await expect(createAccount.getByRole('heading', { level: 2 })).toHaveText('New to Cadence?')
    await expect(createAccount.getByRole('link', { name: 'Create a free account' })).toHaveAttribute('href', `${APP}/signup`)
    await expect(createAccount).toContainText('The Personal plan is free.')
    await expect(page.getByText('You will continue on the Cadence app at app.cadence.test.')).toBeVisible()
    await expect(page.locator('form, input, textarea, button, [type="password"]')).toHaveCount(0)
  })

  test('says the agent API needs no login and links the developer index', async ({ page }) => {
    await page.goto('/login')
    await expect(page.getByRole('heading', { name: 'Developers and AI agents' })).toBeVisible()
    await expect(page.getByText('The public agent API needs no login, account, key or token.')).toBeVisible()
    await expect(page.locator('main').getByRole('link', { name: 'developer index' })).toHaveAttribute('href', '/developers.md')
    await expect(page.locator('main').getByRole('link', { name: 'OpenAPI description' })).toHaveAttribute('href', '/openapi.json')
  })
})

test.describe('not found', () => {
  test('answers 404 with the site chrome, noindex and a way back', async ({ page }) => {
    const response = await page.goto('/no-such-page')
    expect(response?.status()).toBe(404)
    await expect(page).toHaveTitle('Page not found · Cadence')
    await expect(page.locator('h1')).toHaveText('Page not found')
    await expect(page.locator('meta[name="robots"]')).toHaveAttribute('content', 'noindex')
    await expect(page.getByRole('link', { name: 'Cadence homepage', exact: true })).toHaveAttribute('href', '/')
    expect(await linksOf(page, 'header.site-header nav')).toEqual(HEADER_LINKS)
  })
})

test.describe('without JavaScript', () => {
  for (const blockCss of [false, true]) {
    test(`every page is complete ${blockCss ? 'without CSS either' : 'with JavaScript disabled'}`, async ({ browser }) => {
      const context = await browser.newContext({ javaScriptEnabled: false })
      const page = await context.newPage()
      if (blockCss) await page.route('**/site.css', (route) => route.abort())
      const expectations: Record<string, string[]> = {
        '/': ['Goals that get done, with a mentor in the loop.', 'How it works', 'Check in.', 'For developers and AI agents'],
        '/pricing': ['Personal', '$12', 'per active member, per month', 'Talk to us', 'Is there a free plan?'],
        '/contact': ['Email us', 'hello@cadence.example', 'We answer within one business day.'],
        '/login': ['Log in to Cadence', 'Create a free account', 'The public agent API needs no login'],
      }
      for (const [path, texts] of Object.entries(expectations)) {
        await page.goto(path)
        for (const text of texts) await expect(page.getByText(text, { exact: false }).first(), `${path}: ${text}`).toBeVisible()
      }
      await page.route(`${APP}/**`, (route) =>
        route.fulfill({ status: 200, contentType: 'text/html', body: '<!doctype html><title>Sign up</title>' }),
      )
      await page.goto('/pricing')
      await page.getByRole('link', { name: 'Start free' }).click()
      await expect(page).toHaveURL(`${APP}/signup?plan=personal`)
      await context.close()
    })
  }
})

test.describe('keyboard and layout', () => {
  test('the skip link is the first stop and moves focus to the main content', async ({ page }) => {
    for (const path of ['/', '/pricing']) {
      await page.goto(path)
      await page.keyboard.press('Tab')
      const skip = page.getByRole('link', { name: 'Skip to main content' })
      await expect(skip).toBeFocused()
      await expect(skip).toBeInViewport()
      await page.keyboard.press('Enter')
      await expect(page.locator('main#main')).toBeFocused()
    }
  })

  test('focused links show a visible outline', async ({ page }) => {
    await page.goto('/pricing')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    const outline = await page.evaluate(() => {
      const style = getComputedStyle(document.activeElement as Element)
      return { style: style.outlineStyle, width: style.outlineWidth }
    })
    expect(outline).toEqual({ style: 'solid', width: '3px' })
  })

  for (const width of [320, 390, 768, 1280]) {
    test(`no horizontal scrolling at ${width}px`, async ({ page }) => {
      await page.setViewportSize({ width, height: 800 })
      for (const path of ['/', '/pricing', '/contact', '/login', '/no-such-page']) {
        await page.goto(path)
        const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)
        expect(overflow, path).toBe(0)
      }
    })
  }
})

test.describe('accessibility (axe, WCAG 2.1 A and AA)', () => {
  for (const path of ['/', '/pricing', '/contact', '/login', '/no-such-page']) {
    test(`${path} has no serious or critical violations`, async ({ page }, testInfo) => {
      await page.goto(path)
      const results = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']).analyze()
      const summary = results.violations.map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        nodes: violation.nodes.map((node) => node.target.join(' ')),
      }))
      await testInfo.attach('axe-violations.json', { body: JSON.stringify(summary, null, 2), contentType: 'application/json' })
      console.log(
        `axe ${path}: ${results.passes.length} rules passed, ${results.violations.length} violations${summary.length ? ` ${JSON.stringify(summary)}` : ''}`,
      )
      expect(summary.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')).toEqual([])
      expect(results.passes.length).toBeGreaterThan(10)
    })
  }
})

test.describe('Content-Security-Policy', () => {
  for (const { path } of PAGES) {
    test(`${path} runs under its policy without a single violation, loading the site's one script and no framework runtime`, async ({ page }) => {
      const violations: string[] = []
      const pageErrors: string[] = []
      const scripts: string[] = []
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) violations.push(message.text())
      })
      page.on('pageerror', (error) => pageErrors.push(error.message))
      page.on('response', (response) => {
        if (response.request().resourceType() === 'script')
          scripts.push(`${new URL(response.url()).pathname} ${response.status()} ${response.headers()['content-type']}`)
      })
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          ;(window as unknown as { cspViolations: string[] }).cspViolations ??= []
          ;(window as unknown as { cspViolations: string[] }).cspViolations.push(`${event.violatedDirective} ${event.blockedURI}`)
        })
      })
      const response = await page.goto(path)
      expect(response?.headers()['content-security-policy']).toContain("; script-src 'self'; ")
      await page.waitForLoadState('networkidle')
      expect(scripts).toEqual(['/site.js 200 application/javascript; charset=UTF-8'])
      expect(await page.evaluate(() => (window as unknown as { cspViolations?: string[] }).cspViolations ?? [])).toEqual([])
      expect(violations).toEqual([])
      expect(pageErrors).toEqual([])
    })
  }
})
