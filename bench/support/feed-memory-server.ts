/**
 * The synthetic venue of the feed memory benchmark, in its own process (so that its
 * allocations stay out of the measured heap): `/api/v1/trades?global_seq=N&limit=L`
 * answers, generated on the fly from the cursor, the next L (at most 100) trade-detail
 * records with consecutive global_seq N+1, N+2 ..., up to `total` (argv[2], default
 * 1,000,000); after that, empty pages. Every other path is a 404.
 *
 * Prints one JSON line `{ url, apiKey }` when ready; exits when stdin closes.
 */
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

const total = Number(process.argv[2] ?? 1_000_000)
const START_SECONDS = 1_700_000_000

/** One trade-detail record as the venue sends it (snake_case, decimals as strings). */
function record(seq: number): string {
  const pool = seq % 3
  const bid = seq % 2 === 0
  return (
    `{"global_seq":${seq},"tx_id":"${seq.toString(16).padStart(64, '0')}","pool_id":${pool},` +
    `"base_coin":"BASE${pool}","quote_coin":"USDT","base_quantity":"${(seq % 997) + 1}.25",` +
    `"quote_quantity":"${(seq % 991) + 2}.5","price":"1.0${seq % 89}","timestamp":${START_SECONDS + Math.floor(seq / 10)},` +
    `"taker":"demo.trader","taker_fee":"0.00${seq % 7}","taker_is_bid":${bid},` +
    `"taker_order_id":${seq * 2},"taker_order_cid":"c${seq}","taker_permission":"active",` +
    `"maker":"crowd.${seq % 50}","maker_fee":"0.001","maker_order_id":${seq * 2 + 1},` +
    `"maker_order_cid":"","maker_permission":"active"}`
  )
}

const server = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://localhost')
  if (url.pathname !== '/api/v1/trades') {
    res.writeHead(404, { 'content-type': 'application/json' })
    res.end('{"code":404,"message":"not found","data":null,"meta":{}}')
    return
  }
  const after = Number(url.searchParams.get('global_seq') ?? 0)
  const limit = Math.min(100, Number(url.searchParams.get('limit') ?? 50))
  const records: string[] = []
  for (let seq = after + 1; seq <= Math.min(total, after + limit); seq++) records.push(record(seq))
  const body = `{"code":0,"message":"","data":[${records.join(',')}],"meta":{"total":${Math.max(0, total - after)}}}`
  res.writeHead(200, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': String(Buffer.byteLength(body)),
  })
  res.end(body)
})
server.keepAliveTimeout = 60_000
await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
const { port } = server.address() as AddressInfo
process.stdout.write(
  `${JSON.stringify({ url: `http://127.0.0.1:${port}`, apiKey: 'bench-key' })}\n`,
)
process.stdin.resume()
process.stdin.on('end', () => {
  server.closeAllConnections()
  server.close(() => process.exit(0))
})
