'use client'
import { useEffect } from 'react'
import { pageModelContext, registerTools, type ToolEnvironment, type WebMcpTool } from '@/lib/webmcp/client-tools.ts'

const browser: ToolEnvironment = {
  fetch: (path, init) => window.fetch(path, init),
  // After the current task, so the result reaches the agent before the page unloads.
  navigate: (url) => window.setTimeout(() => window.location.assign(url), 0),
}

/** Registers the page's WebMCP tools once it has loaded, where the browser offers a model context; renders nothing. */
export function WebMcpTools({ tools }: { tools: WebMcpTool[] }) {
  useEffect(() => {
    const context = pageModelContext()
    if (!context) return
    const registration = new AbortController()
    registerTools(context, tools, browser, registration.signal)
    return () => registration.abort()
  }, [tools])
  return null
}
