// The Observatory's internals the tests call (tests/support/observatory.ts); the package ships no types for them.
declare module '@mdn/mdn-http-observatory/src/retriever/retriever.js' {
  export function retrieve(
    hostname: string,
    options?: { httpPort?: string; httpsPort?: number; path?: string },
  ): Promise<{ responses: { auto?: { status: number } } }>
}
declare module '@mdn/mdn-http-observatory/src/constants.js' {
  export const ALL_TESTS: Array<((requests: unknown) => { result: string }) & { name: string }>
}
declare module '@mdn/mdn-http-observatory/src/grader/grader.js' {
  export function getScoreModifier(result: string): number
}
