/**
 * CPU time and resident memory of a process, read from Linux /proc, for the benchmark and the soak.
 * A process that is gone reads as 0.
 */
import { readFileSync } from 'node:fs'

/** utime + stime in milliseconds (100 clock ticks per second). */
export function processCpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? []
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100
  } catch {
    return 0
  }
}

/** Resident set size in MB. */
export function processRssMb(pid: number): number {
  try {
    const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return match ? Number(match[1]) / 1024 : 0
  } catch {
    return 0
  }
}
