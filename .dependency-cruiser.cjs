/**
 * The layers of lib/, enforced by `npm run lint` (dependency-cruiser). Each layer may import only
 * the layers below it:
 *
 *   contract      lib/contract/: the contract's shapes, operations, constants, problem codes
 *   foundation    lib/http/, lib/net/, lib/routes/ (where everything is served), lib/env*.ts,
 *                 lib/process-singleton.ts, lib/client-address.ts, lib/on-demand.ts
 *   content       lib/content/: the team's Markdown, validated
 *   site          lib/site.ts, lib/site-model.ts, lib/build-record.ts: the deployment (settings + content + URLs)
 *   features      lib/agent, lib/mcp, lib/discovery, lib/pages, lib/webmcp, lib/quota, lib/redis,
 *                 lib/rollout, lib/telemetry, lib/leads (the contact form's leads: form, store, delivery),
 *                 lib/editor (the visual editor: Keystatic over content/, its API, its request guard),
 *                 lib/agent-signature (Web Bot Auth: whether a request's signature shows a trusted signer),
 *                 lib/admission.ts (whether an agent request is let in: rollout and quota)
 *   composition   lib/agent-routes.ts, lib/lead-routes.ts, lib/signed-agents.ts, lib/server/: what answers a request
 *
 * Among the features, each names the features it stands on (standsOn below): domain code never
 * imports telemetry (decisions reach it as returned values), and lib/webmcp (the page script's tool
 * behaviour) imports nothing of lib/: lib/pages builds on it. The editor is entered by its index.ts,
 * and by serving.ts from next.config.ts and proxy.ts.
 */
const CONTRACT = '^lib/contract/'
const FOUNDATION = '^lib/(http/|net/|routes/|env\\.ts|env-files\\.ts|process-singleton\\.ts|client-address\\.ts|on-demand\\.ts)'
const CONTENT = '^lib/content/'
const SITE = '^lib/(site|site-model|build-record)\\.ts'
const FEATURES = '^lib/(agent/|agent-signature/|mcp/|discovery/|pages/|webmcp/|quota/|redis/|rollout/|telemetry/|leads/|editor/|admission\\.ts)'
/** What every build loads, whether or not it has the editor. */
const BUILD_WIDE = '^(next\\.config|proxy)\\.ts$'
const COMPOSITION = '^lib/(agent-routes\\.ts|lead-routes\\.ts|signed-agents\\.ts|server/)'

/** A feature's own pattern: a folder (`leads`) or a module (`admission.ts`). */
const feature = (name) => (name.endsWith('.ts') ? `^lib/${name.replace('.', '\\.')}` : `^lib/${name}/`)

/** The features a feature may import (any layer below the features it may). */
const standsOn = (name, features) => ({
  name: `${name}-stands-on-${features.length === 0 ? 'no-feature' : features.join('-and-')}`,
  severity: 'error',
  comment: `Of the features, lib/${name} imports ${features.length === 0 ? 'none' : `only ${features.join(', ')}`}.`,
  from: { path: feature(name) },
  to: { path: FEATURES, pathNot: [feature(name), ...features.map(feature)] },
})

const only = (name, from, allowed) => ({
  name,
  severity: 'error',
  comment: `${name}: a module here imports only ${allowed.join(', ')}`,
  from: { path: from },
  to: { path: '^lib/', pathNot: allowed },
})

module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import cycles.', from: {}, to: { circular: true } },
    only('contract-is-the-base', CONTRACT, [CONTRACT]),
    only('foundation-points-down', FOUNDATION, [CONTRACT, FOUNDATION]),
    only('content-points-down', CONTENT, [CONTRACT, FOUNDATION, CONTENT]),
    only('site-points-down', SITE, [CONTRACT, FOUNDATION, CONTENT, SITE]),
    only('features-point-down', FEATURES, [CONTRACT, FOUNDATION, CONTENT, SITE, FEATURES]),
    // Among the features, who stands on whom; every feature may import the layers below the features.
    standsOn('agent', ['admission.ts']),
    standsOn('agent-signature', ['redis']),
    standsOn('mcp', ['agent', 'admission.ts']),
    standsOn('discovery', ['pages']),
    standsOn('pages', ['leads', 'webmcp']),
    standsOn('leads', ['quota', 'redis']),
    standsOn('editor', []),
    standsOn('admission.ts', ['quota', 'rollout']),
    standsOn('rollout', ['quota', 'redis']),
    standsOn('quota', ['redis']),
    standsOn('redis', []),
    // Telemetry records the values the features return; it knows the admission's record, no feature.
    standsOn('telemetry', ['admission.ts']),
    {
      name: 'webmcp-runs-in-the-page',
      severity: 'error',
      comment:
        "lib/webmcp is what the pages' tools do in the browser, bundled into the page script: it imports nothing of lib/ " +
        '(lib/pages defines the tools and imports it, never the other way round).',
      from: { path: '^lib/webmcp/' },
      to: { path: '^lib/' },
    },
    {
      name: 'editor-has-one-entry',
      severity: 'error',
      comment:
        'The visual editor is entered by lib/editor/index.ts (next.config.ts, proxy.ts and the Playwright specs have ' +
        'a door of their own, in the two rules that follow).',
      from: { pathNot: ['^lib/editor/', BUILD_WIDE, '^tests/e2e/'] },
      to: { path: '^lib/editor/', pathNot: '^lib/editor/index\\.ts$' },
    },
    {
      name: 'editor-entries-for-playwright',
      severity: 'error',
      comment:
        "Playwright runs its specs in Node without a bundler, where the editor's page (Next's next/navigation, Keystatic's UI) " +
        'does not load: they take the entries and their words from lib/editor/entries.ts, which imports neither.',
      from: { path: '^tests/e2e/' },
      to: { path: '^lib/editor/', pathNot: '^lib/editor/(index|entries)\\.ts$' },
    },
    {
      name: 'editor-serving-for-every-build',
      severity: 'error',
      comment: 'next.config.ts and proxy.ts take from the editor only lib/editor/serving.ts: the editor itself is not in every build.',
      from: { path: BUILD_WIDE },
      to: { path: '^lib/editor/', pathNot: '^lib/editor/serving\\.ts$' },
    },
    {
      name: 'every-module-has-a-layer',
      severity: 'error',
      comment: 'A new module under lib/ goes into one of the layers above (and this file says which).',
      from: { path: '^lib/', pathNot: [CONTRACT, FOUNDATION, CONTENT, SITE, FEATURES, COMPOSITION] },
      to: {},
    },
    {
      name: 'lib-knows-no-app',
      severity: 'error',
      comment: 'lib/ is imported by app/, proxy.ts, scripts/, harness/ and tests/, never the other way round.',
      from: { path: '^lib/' },
      to: { path: '^(app/|scripts/|harness/|tests/|proxy\\.ts)' },
    },
    {
      name: 'scripts-know-no-tests',
      severity: 'error',
      comment: 'The npm commands (verify, soak, bench, test setup) never depend on the test suite; what both use is in harness/.',
      from: { path: '^scripts/' },
      to: { path: '^tests/' },
    },
    {
      name: 'harness-is-below-scripts-and-tests',
      severity: 'error',
      comment: 'harness/ (test builds, servers, Redis, the judge of right answers) serves scripts/ and tests/ and imports neither, nor app/.',
      from: { path: '^harness/' },
      to: { path: '^(app/|scripts/|tests/)' },
    },
  ],
  options: {
    // TypeScript 7 has no JavaScript API to parse with; swc parses the TypeScript instead.
    parser: 'swc',
    doNotFollow: { path: 'node_modules' },
    // The test builds: copies of the project, made by harness/site-build.ts.
    exclude: { path: '^tests/\\.artifacts/' },
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs'] },
  },
}
