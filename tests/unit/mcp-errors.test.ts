import { describe, expect, it } from 'vitest'
import {
  bodyTooLarge,
  forbiddenOrigin,
  fromLadderRejection,
  invalidParams,
  methodNotAllowed,
  methodNotFound,
  parseError,
  refused,
  unsupportedMediaType,
  unsupportedProtocolVersion,
} from '../../lib/contract/mcp-errors.ts'
import { applicationErrorCode } from '../../lib/contract/constants.ts'

const SUPPORTED = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']

describe('application error codes', () => {
  it('are -31000 minus the HTTP status, outside the JSON-RPC reserved range', () => {
    expect([405, 413, 415, 429, 503].map(applicationErrorCode)).toEqual([-31405, -31413, -31415, -31429, -31503])
  })
})

describe('error answers built at the edge', () => {
  it('405 carries Allow: POST and mcp_method_not_allowed', () => {
    const answer = methodNotAllowed('GET')
    expect(answer).toMatchObject({
      status: 405,
      id: null,
      headers: [['Allow', 'POST']],
      error: { code: -31405, data: { code: 'mcp_method_not_allowed' } },
    })
    expect(answer.error.data?.detail).toMatch(/^GET is not served/)
  })

  it('503 and 429 echo the id and carry retryAfterSeconds', () => {
    expect(refused('public_agent_access_disabled', 'a', 300)).toMatchObject({
      status: 503,
      id: 'a',
      error: { code: -31503, message: 'Public agent access is disabled', data: { code: 'public_agent_access_disabled', retryAfterSeconds: 300 } },
    })
    expect(refused('rate_limit_exceeded', 7, 1)).toMatchObject({
      status: 429,
      id: 7,
      error: { code: -31429, message: 'Too many requests', data: { code: 'rate_limit_exceeded', retryAfterSeconds: 1 } },
    })
  })

  it('-32022 lists all four supported versions and echoes the requested one', () => {
    expect(unsupportedProtocolVersion(3, '2024-11-05')).toMatchObject({
      status: 400,
      id: 3,
      error: { code: -32022, data: { supported: SUPPORTED, requested: '2024-11-05' } },
    })
  })

  it('transport refusals have no id', () => {
    expect(forbiddenOrigin('x')).toMatchObject({ status: 403, id: null, error: { code: -32600, message: 'Forbidden' } })
    expect(bodyTooLarge()).toMatchObject({ status: 413, id: null, error: { code: -31413 } })
    expect(unsupportedMediaType('text/plain')).toMatchObject({ status: 415, id: null, error: { code: -31415 } })
    expect(parseError()).toMatchObject({ status: 400, id: null, error: { code: -32700, message: 'Parse error' } })
  })

  it('every answer has a detail and a resolution', () => {
    const answers = [
      methodNotAllowed('PUT'),
      refused('public_agent_access_disabled', null, 1),
      refused('rate_limit_exceeded', null, 1),
      forbiddenOrigin('x'),
      bodyTooLarge(),
      unsupportedMediaType(null),
      parseError(),
    ]
    for (const answer of answers) {
      expect(typeof answer.error.data?.detail).toBe('string')
      expect(typeof answer.error.data?.resolution).toBe('string')
    }
  })
})

describe('invalid params of a request, from the issues of the SDK schema of its method', () => {
  it('are one in-band -32602 naming each issue by its path', () => {
    const answer = invalidParams(5, [
      { path: ['params', 'uri'], message: 'Invalid input: expected string, received undefined' },
      { path: [{ key: 'params' }, { key: 'cursor' }], message: 'Invalid input: expected string, received number' },
      { message: 'Invalid input' },
    ])
    const summary =
      'params.uri: Invalid input: expected string, received undefined; params.cursor: Invalid input: expected string, received number; Invalid input'
    expect(answer).toEqual({
      status: 200,
      id: 5,
      error: {
        code: -32602,
        message: `Invalid params: ${summary}`,
        data: {
          detail: `Invalid params: ${summary}`,
          resolution: 'Correct the params the message names and retry; tools/list gives the input schema of every tool.',
        },
      },
    })
  })
})

describe('methods this server does not serve', () => {
  it('are -32601 naming the method: 404 on 2026-07-28, in-band on the 2025 transport', () => {
    expect(methodNotFound('u', 'prompts/list', 404)).toMatchObject({
      status: 404,
      id: 'u',
      error: { code: -32601, data: { method: 'prompts/list', detail: 'This server does not serve the method "prompts/list".' } },
    })
    expect(methodNotFound(2, 'prompts/list', 200).status).toBe(200)
    expect(methodNotFound('s', 'subscriptions/listen', 404).error.data?.detail).toMatch(/^This server offers no subscriptions/)
  })
})

describe("the mapping of the SDK classifier's refusals onto the decisions table", () => {
  const rejection = (code: number, message: string, data?: unknown) =>
    ({ kind: 'reject', rung: 'era-classification', cell: 'c', httpStatus: 400, code, message, data, settled: true }) as const

  it('lists every supported version in -32022 and keeps the requested one', () => {
    const sdk = rejection(-32022, 'Unsupported protocol version: 2099-01-01', { supported: ['2026-07-28'], requested: '2099-01-01' })
    expect(fromLadderRejection(sdk, 'r')).toMatchObject({
      status: 400,
      id: 'r',
      error: { code: -32022, data: { supported: SUPPORTED, requested: '2099-01-01' } },
    })
  })

  it('adds mcp_header_mismatch to -32020 and to the 400 -32602 of a malformed envelope, keeping the SDK data', () => {
    const mismatch = fromLadderRejection(
      rejection(-32020, 'Bad Request: the request headers and body disagree', { mismatch: { header: 'x', body: 'y' } }),
      1,
    )
    expect(mismatch.error.data).toMatchObject({
      code: 'mcp_header_mismatch',
      mismatch: { header: 'x', body: 'y' },
      detail: 'Bad Request: the request headers and body disagree',
    })
    const envelope = fromLadderRejection(rejection(-32602, 'Invalid _meta envelope'), 1)
    expect(envelope.error.data).toMatchObject({ code: 'mcp_header_mismatch', detail: 'Invalid _meta envelope' })
  })

  it('gives every refusal a detail and a resolution, and no contract code to a malformed message', () => {
    for (const code of [-32700, -32600, -32020, -32602]) {
      const { data } = fromLadderRejection(rejection(code, 'm'), null).error
      expect([typeof data?.detail, typeof data?.resolution]).toEqual(['string', 'string'])
    }
    expect(fromLadderRejection(rejection(-32600, 'Bad Request: the request body is not a valid JSON-RPC message'), 3)).toMatchObject({
      status: 400,
      id: 3,
      error: { code: -32600, data: { detail: 'Bad Request: the request body is not a valid JSON-RPC message' } },
    })
    expect(fromLadderRejection(rejection(-32600, 'm'), 3).error.data?.code).toBeUndefined()
  })
})
