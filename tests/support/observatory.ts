/**
 * The MDN HTTP Observatory's own scanner (npm `@mdn/mdn-http-observatory`) on one path of a running
 * site, over plain HTTP on loopback: its retriever and its tests, graded as it grades, leaving out the
 * two tests that need TLS on the host (redirection to https, HSTS), as the app-side score.
 */
import { retrieve } from '@mdn/mdn-http-observatory/src/retriever/retriever.js'
import { ALL_TESTS } from '@mdn/mdn-http-observatory/src/constants.js'
import { getScoreModifier } from '@mdn/mdn-http-observatory/src/grader/grader.js'
import { freePort } from '../../harness/site-server.ts'

const NEEDS_TLS = new Set(['redirectionTest', 'strictTransportSecurityTest'])

export interface ObservatoryResult {
  status: number | undefined
  score: number
  /** Each test's outcome and what it added to or took from the score, e.g. `csp-implemented-with-no-unsafe-default-src-none +10`. */
  results: string[]
}

export async function observatoryScan(origin: string, path: string): Promise<ObservatoryResult> {
  const { hostname, port } = new URL(origin)
  // Nothing listens there: the scanner's https attempt fails at once and it reads the http answer.
  const closedPort = await freePort()
  const requests = await retrieve(hostname, { httpPort: port, httpsPort: closedPort, path })
  let score = 100
  const results: string[] = []
  for (const test of ALL_TESTS.filter((candidate) => !NEEDS_TLS.has(candidate.name))) {
    const { result } = test(requests)
    const modifier = getScoreModifier(result)
    score += modifier
    results.push(`${result} ${modifier >= 0 ? '+' : ''}${modifier}`)
  }
  return { status: requests.responses.auto?.status, score, results }
}
