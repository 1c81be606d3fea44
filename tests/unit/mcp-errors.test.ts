import { describe, expect, it } from 'vitest'
import {
  accessDisabled,
  bodyTooLarge,
  forbiddenOrigin,
  methodNotAllowed,
  parseError,
  rateLimited,
  unsupportedMediaType,
  summariseSchemaIssues,
  unsupportedProtocolVersion,
} from '../../lib/mcp/errors.ts'
import { applicationErrorCode } from '../../lib/mcp/protocol.ts'

describe('application error codes', () => {
  it('are -31000 minus the HTTP status, outside the JSON-RPC reserved range', () => {
    expect([405, 413, 415, 429, 503].map(applicationErrorCode)).toEqual([-31405, -31413, -31415, -31429, -31503])
  })
})

describe('error answers built at the edge', () => {
  it('405 carries Allow: POST and mcp_method_not_allowed', () => {
    const answer = methodNotAllowed('GET')
    expect(answer).toMatchObject({ status: 405, id: null, headers: [['Allow', 'POST']], error: { code: -31405, data: { code: 'mcp_method_not_allowed' } } })
    expect(answer.error.data?.detail).toMatch(/^GET is not served/)
  })

  it('503 and 429 echo the id and carry retryAfterSeconds and the admission headers', () => {
    const disabled = accessDisabled('a', 300, [['Retry-After', '300']])
    expect(disabled).toMatchObject({
      status: 503,
      id: 'a',
      headers: [['Retry-After', '300']],
      error: { code: -31503, message: 'Public agent access is disabled', data: { code: 'public_agent_access_disabled', retryAfterSeconds: 300 } },
    })
    const limited = rateLimited(7, 1, [['Retry-After', '1']])
    expect(limited).toMatchObject({
      status: 429,
      id: 7,
      error: { code: -31429, message: 'Too many requests', data: { code: 'rate_limit_exceeded', retryAfterSeconds: 1 } },
    })
  })

  it('-32022 lists all four supported versions and echoes the requested one', () => {
    expect(unsupportedProtocolVersion(3, '2024-11-05')).toMatchObject({
      status: 400,
      id: 3,
      error: { code: -32022, data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26'], requested: '2024-11-05' } },
    })
  })

  it('transport refusals have no id', () => {
    expect(forbiddenOrigin('x')).toMatchObject({ status: 403, id: null, error: { code: -32600, message: 'Forbidden' } })
    expect(bodyTooLarge()).toMatchObject({ status: 413, id: null, error: { code: -31413 } })
    expect(unsupportedMediaType('text/plain')).toMatchObject({ status: 415, id: null, error: { code: -31415 } })
    expect(parseError()).toMatchObject({ status: 400, id: null, error: { code: -32700, message: 'Parse error' } })
  })

  it('every answer has a detail and a resolution', () => {
    for (const answer of [methodNotAllowed('PUT'), accessDisabled(null, 1, []), rateLimited(null, 1, []), forbiddenOrigin('x'), bodyTooLarge(), unsupportedMediaType(null), parseError()]) {
      expect(typeof answer.error.data?.detail).toBe('string')
      expect(typeof answer.error.data?.resolution).toBe('string')
    }
  })
})

describe('SDK schema-issue messages', () => {
  it('are summarised as path: message', () => {
    const raw = JSON.stringify([{ expected: 'string', code: 'invalid_type', path: ['params', 'uri'], message: 'Invalid input: expected string, received undefined' }], null, 2)
    expect(summariseSchemaIssues(raw)).toBe('params.uri: Invalid input: expected string, received undefined')
    expect(summariseSchemaIssues(`Invalid tools/call request: ${raw}`)).toBe('params.uri: Invalid input: expected string, received undefined')
  })

  it('leave other messages alone', () => {
    expect(summariseSchemaIssues('Internal error')).toBeUndefined()
    expect(summariseSchemaIssues('list [1, 2]')).toBeUndefined()
  })
})
