/**
 * The baseline of the feed benchmarks: a bare loop of undici requests and JSON.parse over
 * `/api/v1/trades` pages, following the `global_seq` cursor until a short page.
 */
import { request } from 'undici'

/** Calls `onPage` with each page's trades, in order; resolves after the first short page. */
export async function bareTradePages(
  url: string,
  apiKey: string,
  pageSize: number,
  onPage: (trades: readonly { readonly global_seq: number }[]) => void,
): Promise<void> {
  const headers = { authorization: apiKey }
  let cursor = 0
  for (;;) {
    const { statusCode, body } = await request(
      `${url}/api/v1/trades?global_seq=${cursor}&sort=asc&limit=${pageSize}`,
      { headers },
    )
    const envelope = JSON.parse(await body.text()) as { data: { global_seq: number }[] }
    if (statusCode !== 200) throw new Error(`bare loop: HTTP ${statusCode}`)
    onPage(envelope.data)
    const last = envelope.data.at(-1)
    if (last !== undefined) cursor = last.global_seq
    if (envelope.data.length < pageSize) return
  }
}
