/**
 * One instance per process, however often a module is bundled: Next may load a lib module once per
 * route bundle, and the custom server imports lib natively beside them. State that must be shared
 * (quota buckets, the rollout state and its timer, the Redis client) lives on `globalThis`.
 */
export function processSingleton<T>(name: string, create: () => T): T {
  const key = Symbol.for(`cadence.process-singleton.${name}`)
  const slots = globalThis as unknown as Record<symbol, T | undefined>
  let value = slots[key]
  if (value === undefined) {
    value = create()
    slots[key] = value
  }
  return value
}
