/**
 * Next calls `register` once per server process before serving (next start, Vercel); `npm start`
 * (scripts/start.ts) calls it too. What it registers: lib/telemetry/register.ts. It also says, once at
 * the start, when client addresses come from headers a client may forge (lib/client-address.ts).
 */
export async function register(): Promise<void> {
  // The Edge runtime has no use for it: the agent surface runs on Node.
  // biome-ignore lint/style/noProcessEnv: no setting; Next's bundler writes the runtime in here, and only as this exact expression
  if (process.env.NEXT_RUNTIME === 'edge') return
  const [{ registerTelemetry }, { forgeableAddressWarning }, { contentReloadsOnEdit, getConfig }] = await Promise.all([
    import('./lib/telemetry/register.ts'),
    import('./lib/client-address.ts'),
    import('./lib/env.ts'),
  ])
  const warning = forgeableAddressWarning(getConfig(), contentReloadsOnEdit())
  if (warning) console.warn(warning)
  await registerTelemetry()
}
