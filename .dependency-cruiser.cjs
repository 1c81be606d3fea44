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
 *                 lib/agent-signature (Web Bot Auth: whether a request's signature shows a trusted signer)
 *   composition   lib/admission.ts, lib/agent-routes.ts, lib/lead-routes.ts, lib/signed-agents.ts, lib/server/: what answers a request
 *
 * Within the features, domain code never imports telemetry: decisions reach it as returned values,
 * and lib/webmcp (the page script's tool behaviour) imports nothing: lib/pages builds on it.
 */
const CONTRACT = '^lib/contract/'
const FOUNDATION = '^lib/(http/|net/|routes/|env\\.ts|env-files\\.ts|process-singleton\\.ts|client-address\\.ts|on-demand\\.ts)'
const CONTENT = '^lib/content/'
const SITE = '^lib/(site|site-model|build-record)\\.ts'
const FEATURES = '^lib/(agent/|agent-signature/|mcp/|discovery/|pages/|webmcp/|quota/|redis/|rollout/|telemetry/|leads/|editor/|admission\\.ts)'
const COMPOSITION = '^lib/(agent-routes\\.ts|lead-routes\\.ts|signed-agents\\.ts|server/)'

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
    {
      name: 'domain-without-telemetry',
      severity: 'error',
      comment: 'Domain modules hand decisions to telemetry as values; they never import it.',
      from: { path: '^lib/(agent|agent-signature|mcp|discovery|pages|webmcp|quota|redis|rollout|leads|editor)/' },
      to: { path: '^lib/telemetry/' },
    },
    {
      name: 'telemetry-knows-no-feature',
      severity: 'error',
      comment: 'Telemetry records values; it imports no feature.',
      from: { path: '^lib/telemetry/' },
      to: { path: '^lib/(agent|agent-signature|mcp|discovery|pages|webmcp|quota|redis|rollout|leads|editor)/' },
    },
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
