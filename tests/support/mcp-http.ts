/**
 * Raw HTTP for MCP tests: node:http so that every header (Host, Origin, Content-Length) and every
 * body byte is exactly what the test says, plus builders for 2026-07-28 and legacy requests.
 */
import { request as httpRequest } from 'node:http'
import type { RunningSite } from '../../harness/site-server.ts'

export const MODERN = '2026-07-28'
export const SUPPORTED_VERSIONS = ['2026-07-28', '2025-11-25', '2025-06-18', '2025-03-26']

export interface RawResponse {
  status: number
  headers: Record<string, string | string[] | undefined>
  text: string
  /** The parsed JSON body, or undefined when the body is empty or not JSON. */
  json: any
}

export interface RawRequest {
  method?: string
  path?: string
  headers?: Record<string, string>
  body?: string | Buffer
  /** Send the body with Transfer-Encoding: chunked (no Content-Length). */
  chunked?: boolean
}

export async function raw(site: RunningSite, options: RawRequest = {}): Promise<RawResponse> {
  const { method = 'POST', path = '/mcp', headers = {}, body, chunked = false } = options
  const allHeaders: Record<string, string> = { host: `127.0.0.1:${site.port}`, ...headers }
  if (body !== undefined && !chunked) allHeaders['content-length'] = String(Buffer.byteLength(body))
  return await new Promise((resolve, reject) => {
    const req = httpRequest({ host: '127.0.0.1', port: site.port, method, path, headers: allHeaders, timeout: 30_000 }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8')
        let json: unknown
        try {
          json = text ? JSON.parse(text) : undefined
        } catch {
          json = undefined
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, json })
      })
      res.on('error', reject)
    })
    req.on('timeout', () => req.destroy(new Error('request timed out')))
    req.on('error', reject)
    if (body !== undefined && chunked) {
      const bytes = Buffer.from(body)
      const half = Math.floor(bytes.length / 2)
      req.write(bytes.subarray(0, half))
      req.end(bytes.subarray(half))
    } else {
      req.end(body)
    }
  })
}

export function envelope(version = MODERN): Record<string, unknown> {
  return {
    'io.modelcontextprotocol/protocolVersion': version,
    'io.modelcontextprotocol/clientCapabilities': {},
    'io.modelcontextprotocol/clientInfo': { name: 'raw-test', version: '1.0.0' },
  }
}

/** A 2026-07-28 request with its `_meta` envelope and the mirrored headers. */
export function modernRequest(method: string, params: Record<string, unknown> = {}, id: string | number = 'req-1') {
  const name = method === 'tools/call' ? params.name : method === 'resources/read' ? params.uri : undefined
  return {
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN,
      'mcp-method': method,
      ...(typeof name === 'string' ? { 'mcp-name': name } : {}),
    } as Record<string, string>,
    body: { jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope() } } as Record<string, any>,
  }
}

export async function postModern(site: RunningSite, method: string, params: Record<string, unknown> = {}, id: string | number = 'req-1') {
  const { headers, body } = modernRequest(method, params, id)
  return await raw(site, { headers, body: JSON.stringify(body) })
}

export async function postLegacy(site: RunningSite, body: unknown, headers: Record<string, string> = {}) {
  return await raw(site, {
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25', ...headers },
    body: JSON.stringify(body),
  })
}
