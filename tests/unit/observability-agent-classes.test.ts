/**
 * The agent classifier (lib/telemetry/agent-classes.ts): known AI crawlers and assistants by their
 * published User-Agent token, whole tokens only, then the MCP clientInfo name (normalised, bounded),
 * then "other".
 */
import { describe, expect, it } from 'vitest'
import { agentFromUserAgent, classifyAgent, KNOWN_AGENT_TOKENS, MAX_MCP_CLIENT_CLASSES, mcpClientClass } from '../../lib/telemetry/agent-classes.ts'

describe('agentFromUserAgent', () => {
  it.each([
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; GPTBot/1.2; +https://openai.com/gptbot', 'GPTBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; ChatGPT-User/1.0; +https://openai.com/bot', 'ChatGPT-User'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko); compatible; OAI-SearchBot/1.0; +https://openai.com/searchbot', 'OAI-SearchBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)', 'ClaudeBot'],
    ['Claude-User/1.0 (+https://support.anthropic.com/)', 'Claude-User'],
    ['Mozilla/5.0 (compatible; Claude-SearchBot/1.0)', 'Claude-SearchBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; PerplexityBot/1.0; +https://perplexity.ai/perplexitybot)', 'PerplexityBot'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Perplexity-User/1.0)', 'Perplexity-User'],
    ['Google-Extended', 'Google-Extended'],
    ['Mozilla/5.0 (compatible; Applebot-Extended/0.1)', 'Applebot-Extended'],
    ['CCBot/2.0 (https://commoncrawl.org/faq/)', 'CCBot'],
    ['Mozilla/5.0 (Linux; Android 5.0) Mobile Safari/537.36 (compatible; Bytespider; spider-feedback@bytedance.com)', 'Bytespider'],
    ['Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; Amazonbot/0.1; +https://developer.amazon.com/support/amazonbot)', 'Amazonbot'],
    ['meta-externalagent/1.1 (+https://developers.facebook.com/docs/sharing/webmasters/crawler)', 'meta-externalagent'],
    // Case-insensitive, reported in the operator's spelling.
    ['gptbot/1.0', 'GPTBot'],
  ])('%s → %s', (userAgent, expected) => {
    expect(agentFromUserAgent(userAgent)).toBe(expected)
  })

  it('a token inside a longer word is not that agent; browsers and empty values are no agent', () => {
    expect(agentFromUserAgent('ClaudeBotany/1.0')).toBeUndefined()
    expect(agentFromUserAgent('NotGPTBot/1.0')).toBeUndefined()
    expect(agentFromUserAgent('Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0')).toBeUndefined()
    expect(agentFromUserAgent('')).toBeUndefined()
    expect(agentFromUserAgent(null)).toBeUndefined()
  })

  it('every listed token classifies as itself', () => {
    for (const token of KNOWN_AGENT_TOKENS) expect(agentFromUserAgent(`Mozilla/5.0 (compatible; ${token}/1.0)`)).toBe(token)
  })
})

describe('classifyAgent', () => {
  it('User-Agent first, then the MCP client name, then other', () => {
    expect(classifyAgent('Claude-User/1.0', 'claude-ai')).toBe('Claude-User')
    expect(classifyAgent('node', 'Claude Code')).toBe('mcp:claude-code')
    expect(classifyAgent('node', undefined)).toBe('other')
    expect(classifyAgent(null, 42)).toBe('other')
    expect(classifyAgent(null, '  ')).toBe('other')
  })

  it('a verified signer names the class when the User-Agent names no known agent, before the MCP client name', () => {
    const browser = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/138.0.0.0 Safari/537.36'
    expect(classifyAgent(browser, undefined, 'https://chatgpt.com')).toBe('signed:chatgpt.com')
    expect(classifyAgent('node', 'Claude Code', 'http://127.0.0.1:4100')).toBe('signed:127.0.0.1:4100')
    expect(classifyAgent('ChatGPT-User/1.0', undefined, 'https://chatgpt.com')).toBe('ChatGPT-User')
    expect(classifyAgent(browser, undefined, null)).toBe('other')
  })

  it('MCP client names are normalised and bounded, so metric attributes stay a small set', () => {
    expect(mcpClientClass('Cursor/IDE  v2')).toBe('mcp:cursor-ide-v2')
    expect(mcpClientClass('x'.repeat(100))).toBe(`mcp:${'x'.repeat(40)}`)
    for (let i = 0; i < MAX_MCP_CLIENT_CLASSES + 10; i++) mcpClientClass(`client-${i}`)
    expect(mcpClientClass('one-too-many')).toBe('other')
    // Names seen before the cap keep their class.
    expect(mcpClientClass('Cursor/IDE  v2')).toBe('mcp:cursor-ide-v2')
  })
})
