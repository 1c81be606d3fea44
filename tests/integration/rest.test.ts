import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { AgentHealthSchema } from '../../lib/contract/schemas.ts'
import { startSite, type RunningSite } from '../support/site-server.ts'

let site: RunningSite

beforeAll(async () => {
  site = await startSite({ BASE_URL: 'https://agents.example.com' })
})
afterAll(async () => {
  await site?.stop()
})

describe('GET /api/agent/v1/health', () => {
  it('answers the AgentHealth body with the contract version', async () => {
    const response = await site.fetch('/api/agent/v1/health')
    expect(response.status).toBe(200)
    expect(response.headers.get('api-version')).toBe('2026-08-25')
    const body = AgentHealthSchema.parse(await response.json())
    expect(body.openapi).toBe('https://agents.example.com/openapi.json')
  })
})
