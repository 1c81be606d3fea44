/**
 * The physical limit of this machine: a bare node:http server that answers each benchmark case
 * with the exact bytes (status, headers, body) the site answered, with no work in between.
 */
import { readFileSync } from 'node:fs'
import { createServer } from 'node:http'

interface RecordedAnswer {
  key: string
  status: number
  headers: [string, string][]
  body: string
}

const answers = new Map(
  (JSON.parse(readFileSync(process.argv[2] ?? '', 'utf8')) as RecordedAnswer[]).map((answer) => [
    answer.key,
    { status: answer.status, headers: answer.headers.flat(), body: Buffer.from(answer.body, 'base64') },
  ]),
)

const server = createServer((request, response) => {
  const answer = answers.get(`${request.method} ${request.url}`)
  request.resume()
  request.on('end', () => {
    if (!answer) {
      response.writeHead(404).end()
      return
    }
    response.writeHead(answer.status, answer.headers)
    response.end(answer.body)
  })
})
server.keepAliveTimeout = 65_000
server.listen(Number(process.argv[3]), '127.0.0.1', () => console.log('bare server ready on'))
process.on('SIGTERM', () => process.exit(0))
