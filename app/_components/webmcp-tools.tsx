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
  // Once per page load: the tools are the page's static data, and registering them again for a new
  // array of the same tools would withdraw them from an agent for a moment.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the first props are the page's tools for its lifetime
  useEffect(() => {
    const context = pageModelContext()
    if (!context) return
    const registration = new AbortController()
    registerTools(context, tools, browser, registration.signal)
    return () => registration.abort()
  }, [])
  return null
}
