/** Small helpers for asserting on HTTP answers in tests. */

export async function readJson(response: Response): Promise<unknown> {
  const text = await response.text()
  try {
    return JSON.parse(text)
  } catch {
    throw new Error(`expected JSON, got ${response.status} ${response.headers.get('content-type')}: ${text.slice(0, 300)}`)
  }
}

/** Response headers as a plain object with lower-case names, minus transport noise. */
export function headerObject(response: Response): Record<string, string> {
  const noise = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])
  return Object.fromEntries([...response.headers].filter(([name]) => !noise.has(name)))
}

/** The Markdown body of a content file with its placeholders filled, read straight from disk. */
export async function expectedMarkdown(relativePath: string, values: Record<string, string>): Promise<string> {
  const { readFile } = await import('node:fs/promises')
  const { projectRoot } = await import('./paths.ts')
  const source = await readFile(`${projectRoot}/${relativePath}`, 'utf8')
  const body = source.replace(/^---\n[\s\S]*?\n---\n/, '').trim() + '\n'
  return body.replace(/\{\{(\w+)\}\}/g, (_, name: string) => {
    const value = values[name]
    if (value === undefined) throw new Error(`no test value for {{${name}}}`)
    return value
  })
}
