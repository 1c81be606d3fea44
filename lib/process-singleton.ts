/** The instances this copy of the module has handed out, by name: a hot path (the quota, telemetry) asks on every request. */
const handedOut = new Map<string, unknown>()

/**
 * One instance per process, however often a module is bundled: Next may load a lib module once per
 * route bundle, and the custom server imports lib natively beside them. State that must be shared
 * (quota buckets, the rollout state and its timer, the Redis client) lives on `globalThis`.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const held = handedOut.get(name)
  if (held !== undefined || handedOut.has(name)) return held as T
  const key = Symbol.for(`cadence.process-singleton.${name}`)
  const slots = globalThis as unknown as Record<symbol, T | undefined>
  let value = slots[key]
  if (value === undefined) {
    value = create()
    slots[key] = value
  }
  handedOut.set(name, value)
  return value
}
